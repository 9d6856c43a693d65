"""The Spanish pack: every word the review reads in it (fields: ``pack.py``)."""

from donecheck.actors.words.lang.pack import TARGET, Pack

PACK = Pack(
    code="es",
    script="latin",
    next_step=(
        r"^\s*(?:ahora\s+|a continuación,?\s+)?(?:voy a|déjame|vamos a)\s+(?:ejecutar|"
        r"revisar|probar|comprobar|verificar|escribir|crear|actualizar|corregir|"
        r"implementar|añadir)\b"
    ),
    asks_user=(
        r"\b(?:por favor|puedes|podrías)\s+(?:proporcionar|compartir|enviar|darme|"
        r"configurar)\b.{0,60}?\b(?:token|clave|contraseña|credenciales|acceso|permiso)"
        r"\b"
    ),
    done=(
        r"\b(?:(?<!el )(?<!un )hecho(?! de)|listo|terminad[oa]|completad[oa]|completo|"
        r"funciona(?:n)?|implementad[oa]|arreglad[oa]|resuelt[oa]|verificad[oa]|"
        r"comprobad[oa]|corregid[oa]|implementé|arreglé|corregí|resolví|"
        r"list[oa]s? para (?:fusionar|revisi[oó]n|producci[oó]n|"
        r"desplegar)|sin errores|todo bien|todo correcto)\b"
    ),
    checks=(
        r"\b(?P<subject>(?:las |los )?(?:pruebas|tests?|test unitarios|compilación|build|"
        r"linter|comprobaciones|ci|suite de pruebas|verificación de tipos|mypy|ruff|pytest|"
        r"eslint|pyright|tsc|flake8|pylint))\b"
        r"[^.\n]{0,30}?\b(?P<verb>pasan|pasaron|han pasado|"
        r"pasa|superadas|superan|funciona(?:n)?|(?:tuvo|tienen) éxito|en verde|correctas?|"
        r"exitosas?|ok|(?:salen|sale|salieron|salió|van|va) bien|limpi[oa]s?|sin (?:errores|"
        r"advertencias|problemas)|no (?:reporta|reportó|encuentra|encontró|muestra|mostró|"
        r"da|dio|marca|detecta|detectó|señala|arroja|arrojó)\s+(?:ningún\s+)?(?:errores|error|"
        r"problemas?|advertencias?))\b",
        # "Corregido y probado" (not when the sentence goes on to a failure)
        r"(?<![\w-])(?P<subject>(?P<verb>probad[oa]s?|testead[oa]s?))\b(?![^.\n]*\bfall)",
        r"\b(?P<verb>pasan|pasaron|han pasado)\s+(?:todas\s+)?(?:las\s+|los\s+)?"
        r"(?P<subject>pruebas|tests)\b",
        r"\b(?P<subject>compila)\b(?P<verb>)",
    ),
    subjects=(
        ("type", r"tipos|mypy|pyright|tsc"),
        ("lint", r"linter|lint|ruff|eslint|flake8|pylint"),
        ("build", r"compila|build"),
        ("test", r"prueba|probad|test"),
    ),
    change=(
        r"\b(?:cre[ée]|actualic[ée]|implement[ée]|modifiqu[ée]|cambi[ée]|añad[íi]|"
        r"agregu[ée]|edit[ée]|"
        r"escrib[íi]|borr[ée]|elimin[ée]|renombr[ée]|correg[íi]|he (?:creado|actualizado|"
        r"modificado|cambiado|añadido|agregado|editado|escrito|borrado|eliminado|corregido)|"
        r"(?:fue|ha sido) (?:creado|actualizado|modificado|editado|corregido))\b"
    ),
    approved=(
        r"\b(?:(?:el|la|los|las)\s+)?(?P<subject>[\wáéíóúñ-]+(?:\s+[\wáéíóúñ-]+)?)\s+"
        r"(?:fue|ha sido|está|quedó|han sido|fueron|quedaron|están)\s+(?:(?:ya|oficialmente)\s+)?"
        r"(?:aprobad[oa]s?|autorizad[oa]s?)\b",
        r"\bse (?:aprob[óo]|ha aprobado|autoriz[óo])\s+(?:el |la |los |las )?"
        r"(?P<subject>[\wáéíóúñ-]+)",
    ),
    unapproved=(
        (
            r"\b(?:no (?:ha sido |fue |está |se ha |han sido )?(?:aprobad|autorizad)\w*|"
            r"pendiente(?:s)? de (?:aprobación|autorización|decisión)|"
            r"a[uú]n no (?:se ha |ha sido )?aprobad\w*|rechazad[oa]s?|denegad[oa]s?|sin aprobar|"
            r"en espera de (?:aprobación|decisión)|la decisión se (?:espera|tomará))"
        ),
    ),
    negation=(
        r"\bno\b(?!\s+(?:hay\s+)?errores\b)|\bnunca\b|\btodavía\b|\baún\b|\bpendiente\b|"
        r"\bdebería(?:n)?\b|\bpodría(?:n)?\b|\bva(?:n)? a\b|\bhay que\b|\btiene(?:n)? que\b|"
        r"\bpara que\b|\besper(?:a|o|amos|ando)\b|\bfalta\b|\bsin\b(?! errores)|"
        r"\bintent(?:é|o|ando)\b"
    ),
    conditional=r"\bsi\b|\ba menos que\b|\ben caso de\b|\buna vez que\b|\bsiempre que\b",
    reported=(
        r"\bsegún\b(?!\s+(?:el |la |los |las )?(?:pruebas|tests|salida|log|registro|ci|"
        r"resultados?)\b)|\bdijo que\b|\bdicen que\b|\bsupuestamente\b|\bal parecer\b|"
        r"\bme dijeron\b|\bafirma que\b"
    ),
    marker=(
        r"[ñáíóú¿¡]|\b(?:el|los|las|del|que|y|está|están|son|fue|todas?|todos|pruebas|se|por|"
        r"para|con|una?|sin|ha|he|hay|según|pero|ya|muy|también|implementé|arreglé|"
        r"actualicé|modifiqué|cambié|agregué|errores|advertencias|reporta|reportó)\b"
    ),
    after_object=r"^\s*(?:(?:ya|también)\s+)?$",
    offer=r"\bsi (?:quieres|lo deseas|es necesario)\b",
    clause_words=r"\b(?:pero|porque|aunque|así que)\b",
    object_words=r"\b(?:y|que)\b",
    list_words=r"y",
    test_counts=(
        r"\b(?:todas las|todos los|las|los)\s+(?P<n>\d{1,6})\s+(?:pruebas|tests)\b",
        r"\b(?P<n>\d{1,6})\s+(?:pruebas|tests)\s+(?:pasan|pasaron|superadas|en verde)",
    ),
    mentions=(("build", r"\bcompilación\b"), ("test", r"\bpruebas?\b")),
    change_request=(r"\b(?:actualiza|modifica|añade|agrega|crea|corrige|elimina|cambia|escribe)\b"),
    read_request=r"\b(?:lee|leer|consulta|usa|usando|según)\b",
    forbids_run=(
        r"\bno\s+(?:\w+\s+){0,2}?(?:ejecutes|ejecute|ejecutar|corras|corra"
        r"|lances|lance)\b|\bnunca\s+ejecut"
    ),
    input_role=(
        r"\b(?:a\ partir\ de|desde|con|usando|utilizando|mediante|según|conforme\ a|"
        r"de\ acuerdo\ con|basad[oa]s?\ en|siguiendo|que\ describa|describiendo|"
        r"(?:especificad|descrit|definid|indicad|detallad)[oa]s?\ en)\s+(?:el\s+|la\s+)?"
        r"(?:archivo\s+|fichero\s+)?[`'\"]?\x00"
    ),
    output_role=(
        r"\b(?:elimin|quit|borr|mueve|mover|extrae|extraer|sac)\w*\b[^.;:\x00]{0,60}?\b"
        r"(?:de|desde)\s+(?:el\s+|la\s+)?(?:archivo\s+)?[`'\"]?\x00"
    ),
    source_before=r"\b(?:convert\w*|conviert\w*|transform\w*|export\w*|traduc\w*)\s+(?:el\s+|la\s+|los\s+)?(?:archivo\s+)?$",
    source_after=r"^\s+(?:a|en|como)\s+(?:una?\s+|el\s+|la\s+)?" + TARGET,
    must=r"\b(?:debe|deben|tiene que|es necesario)\b",
    constraint=r"\b(?:no debe)\b",
    stop_words="fue ha sido está el la los las de del que se por para aprobado aprobada pendiente",
    usual_subjects=(
        ("budget", ("presupuesto",)),
        ("contract", ("contrato",)),
        ("design", ("diseño",)),
        ("plan", ("plan",)),
        ("proposal", ("propuesta",)),
        ("release", ("lanzamiento", "versión")),
        ("purchase", ("compra",)),
        ("hiring", ("contratación",)),
        ("refund", ("reembolso",)),
        ("invoice", ("factura",)),
    ),
    harm=(
        r"\b(?:omit\w*|salt(?:a|ar|e)|elimin\w*|borr\w*|desactiv\w*|relaj\w*|debilit\w*|"
        r"coment\w*)\b[^.;:]{0,40}?\b(?:pruebas?|tests?|aserciones?|comprobaciones?)\b"
    ),
    admits=(
        r"\bno (?:pude|pudo|he podido|puedo|se pudo)\b|\bsigue(?:n)? fallando\b|"
        r"\bfalla(?:n|ron)?\b|"
        r"\bno funciona\b|\bsin terminar\b|\bno (?:está|están) (?:terminad|listo)"
    ),
    test_levels=(
        ("e2e", r"\b(?:e2e|end[- ]to[- ]end|de\s+extremo\s+a\s+extremo)\b"),
        ("integration", r"\bde\s+integraci[óo]n\b"),
        ("unit", r"\bunitari[ao]s?\b"),
        ("acceptance", r"\bde\s+aceptaci[óo]n\b"),
        ("smoke", r"\bsmoke\b"),
    ),
    own_testing=r"""\b(?:estoy|estamos)\s+(?:probando|testeando)\b""",
    own_doings=r"""^(?!.*(?:fall|error|rompi|roto|por\s+favor))\W*(?:tengo|tenemos|usamos|utilizamos|ejecuté|ejecutamos|probé|probamos|hemos)\b""",
    own_tests=r"""\b(?:ambas|ambos|las\s+dos|los\s+dos|mis?|el\s+nuevo|los\s+nuevos|la\s+nueva|las\s+nuevas)\s+(?:\w+\s+)?(?:pruebas?|tests?|scripts?)\b|\bscripts?\s+de\s+(?:reproducción|verificación|prueba)\b""",
    check_topics=(
        r"\b(?:tiempos?|registros?|resultados?|informes?|estado|datos|historial)\s+de\s+"
        r"(?:la\s+|las\s+|los\s+)?(?:compilaci[oó]n|pruebas?|builds?)\b"
    ),
    visual=(
        r"\b(?:captura|imagen(?:es)?|foto|maqueta|diagrama|gr[aá]fico|colou?r(?:es)?|dise[ñn]o|"
        r"aspecto|icono|fuente|estilo)\b"
    ),
)
