"""The Italian pack: every word the review reads in it (fields: ``pack.py``).

Italian shares the Latin script, and so its take-back words, with English, Spanish,
German, French and Portuguese; ``false_friends`` keeps their "si" (here "itself"),
"ne" ("of it") and "va" ("goes", "va bene") from taking an Italian statement back.
Its own "se" is "if" only before what a condition opens with (a subject, an article,
a verb in the second person), not the Spanish "se" of "se aprobó".
"""

from donecheck.actors.words.lang.pack import TARGET, Pack

PACK = Pack(
    code="it",
    script="latin",
    next_step=(
        # "Ora eseguo i test.", "Adesso verifico …", "Lasciami controllare …", "Eseguirò …"
        r"^\s*(?:(?:ora|adesso|poi|quindi|ok),?\s+)?(?:(?:vado a|lasciami|fammi|passo a)\s+"
        r"(?:eseguire|lanciare|verificare|controllare|testare|scrivere|creare|aggiornare|"
        r"correggere|implementare|aggiungere|leggere|aprire|installare)"
        r"|(?:ora|adesso)\s+(?:eseguo|lancio|verifico|controllo|testo|scrivo|creo|aggiorno|"
        r"correggo|implemento|aggiungo|leggo|apro|installo)"
        r"|(?:eseguirò|lancerò|verificherò|controllerò|testerò|scriverò|creerò|aggiornerò|"
        r"correggerò|implementerò|aggiungerò|installerò))\b"
    ),
    asks_user=(
        # "Puoi fornirmi il token?", "Ho bisogno della tua chiave API."
        r"\b(?:per favore|puoi|potresti|può|potrebbe)\s+(?:mi\s+)?(?:fornir\w*|condivider\w*|"
        r"inviar\w*|mandar\w*|dar\w*|impostar\w*|concedere)\b.{0,60}?\b(?:token|chiave|"
        r"password|credenziali|accesso|permess[oi])\b"
        r"|\bho bisogno (?:di|del|della|delle|dei|dell')\s*(?:tua\s+|tuo\s+|una\s+|un\s+)?"
        r"(?:[\w-]+\s+){0,3}?(?:token|chiave|password|credenziali|accesso|permess[oi])\b"
    ),
    done=(
        # not "completo": Spanish and Portuguese say it too
        r"\b(?:fatto|completat[oaie]|finit[oaie]|terminat[oaie]|concluso|"
        r"implementat[oaie]|risolt[oaie]|corrett[oaie]|sistemat[oaie]|verificat[oaie]|"
        r"funziona(?:no)?(?: correttamente| bene| ora| adesso)?|pront[oa] per (?:il merge|"
        r"la revisione|la produzione|il rilascio)|tutto (?:pronto|ok|a posto)|"
        r"(?:nessun|senza) error[ei])\b"
    ),
    checks=(
        r"\b(?P<subject>(?:tutti i |i |il )?(?:test|test unitari|test di integrazione|"
        r"compilazione|build|linter|lint|controllo dei tipi|controlli|verifiche|ci|"
        r"pipeline|mypy|ruff|pytest|eslint|tsc|pyright|flake8|suite di test|suite))\b"
        r"[^.\n]{0,30}?\b(?P<verb>passano|passa|"
        r"sono passati|è passato|"
        r"(?:sono stati |è stato )?superat[oi]|riescono|(?:sono |è )?(?:verd[ei]|ok)|"
        r"funzionano|funziona|vanno a buon fine|con successo|pulit[oi]|senza (?:errori|avvisi|"
        r"problemi)|non (?:segnala|ha segnalato|riporta|ha riportato|trova|ha trovato|mostra|"
        r"rileva|ha rilevato|dà|restituisce)\s+(?:alcun\s+|nessun\s+)?(?:errori|errore|problemi|"
        r"warning|avvisi|nulla|niente))\b",
        # "Corretto e testato" (not when the sentence goes on to a failure)
        r"(?<![\w-])(?P<subject>(?P<verb>testat[oaie]))\b(?![^.\n]*\bfalli)",
        # "Passano tutti i test."
        r"\b(?P<verb>passano|sono passati)\s+(?:tutti\s+)?(?:i\s+)?(?P<subject>test)\b",
        # "Il codice compila senza errori" (not a bare "compila": Spanish and Portuguese say it)
        r"\b(?P<subject>compila)\s+(?P<verb>senza errori|correttamente|con successo)\b",
    ),
    subjects=(
        ("type", r"tipi|mypy|tsc"),
        ("lint", r"lint|ruff|eslint"),
        ("build", r"compila|build"),
        ("test", r"test|suite"),
    ),
    change=(
        r"\b(?:ho |abbiamo )?(?:creat[oaie]|aggiornat[oaie]|modificat[oaie]|cambiat[oaie]|"
        r"aggiunt[oaie]|editat[oaie]|scritt[oaie]|riscritt[oaie]|cancellat[oaie]|"
        r"rimoss[oaie]|eliminat[oaie]|rinominat[oaie]|corrett[oaie]|implementat[oaie]|"
        r"sostituit[oaie]|salvat[oaie]|generat[oaie]|sistemat[oaie])\b"
    ),
    approved=(
        # "Il budget è stato approvato", "Il contratto è già approvato"
        r"\b(?:(?:il|lo|la|i|gli|le)\s+|l')?(?P<subject>[\w#-]+(?:\s+[\w#-]+)??)\s+(?:è stat[oa]|"
        r"sono stat[ie]|è|sono|fu|risulta|risultano)\s+(?:(?:già|ufficialmente|finalmente|"
        r"formalmente|ora)\s+)?(?:approvat[oaie]|autorizzat[oaie]|firmat[oaie])\b",
        # "Il consiglio ha approvato il budget" (not "nessuno ha approvato")
        r"\b(?!(?:non|nessuno|nessuna|mai|ancora|che|chi|il|lo|la|i|gli|le)\b)[\w-]+\s+"
        r"(?:ha|hanno)\s+(?:già\s+)?(?:approvato|autorizzato)\s+(?:il\s+|lo\s+|la\s+|i\s+|"
        r"gli\s+|le\s+|l')?(?P<subject>[\w-]+(?:\s+[\w-]+)?)",
        # "Approvazione concessa"
        r"\bapprovazione\s+(?:(?:del|della|dei|dello)\s+(?P<subject>[\w-]+)\s+)?"
        r"(?:è stata\s+)?(?:concessa|ottenuta|ricevuta|data)\b",
    ),
    unapproved=(
        (
            r"\b(?:non (?:è |sono )?(?:ancora )?(?:stat[oaie] )?(?:approvat|autorizzat)\w*|"
            r"in attesa (?:di|dell')\s*(?:approvazione|autorizzazione|decisione)|"
            r"in (?:fase di )?(?:revisione|approvazione)|respint[oaie]|rifiutat[oaie]|"
            r"senza approvazione|(?:nessuno|nessuna) (?:ha )?(?:approvato|"
            r"autorizzato)|la decisione (?:è attesa|sarà presa|arriverà))"
        ),
    ),
    negation=(
        r"\bnon\b(?!-|\s+seulement\b)|\bnessun[oa]?\b|\bniente\b|\bnulla\b|\bnemmeno\b|"
        r"\bneanche\b|\bneppure\b|\bsenza\b(?!\s+error[ei]\b)|\bancora da\b|"
        r"\bin attesa\b|\bin sospeso\b|\bdovr(?:ebbe|ebbero|à|anno)\b|"
        r"\bpotr(?:ebbe|ebbero|à|anno)\b|\bsar(?:à|anno)\b|\bbisogna\b|\boccorre\b|"
        r"\bdev(?:e|ono) essere\b|\baffinché\b|\bper far\w*\b|\b(?:provato|tentato) a\b|"
        r"\bcercato di\b|\bprossim[oi] pass[oi]\b"
    ),
    # "si" (itself), "ne" (of it), "va" (goes, "va bene"): another pack's take-back
    # word, not one here
    false_friends=r"\bsi\b|\bne\b|\bva\b",
    conditional=(
        # "Se installi …", "se la dipendenza …", "se necessario"
        r"(?<![-\w])se\b(?=\s+(?:tu|lei|lui|noi|voi|loro|il|i|gli|un|uno|una|non|"
        r"necessario|possibile|serve|vuoi|volete|tutto|qualcosa|c'è|ci sono|funziona|passa|"
        r"fallisce|\w+i"
        # "se la/lo/le": not the Spanish "se lo envié", "se le ha dicho"
        r"|l[aoe]\s+(?!(?:ha|han|he|hemos|había|habían|hizo|dio|dijo|dije)\b)(?!\w+[óé]\b)"
        r")\b)|\ba meno che\b|\bnel caso (?:in cui|che)\b|\bqualora\b|\bpurché\b|"
        r"\buna volta che\b|\bnon appena\b|\bfinché non\b"
    ),
    reported=(
        r"(?<!\bil )(?<!\bla )(?<!\bun )\bsecondo\b(?!\s+(?:i |il |la |le |gli |l')?(?:test|"
        r"log|output|ci|risultat[oi])\b)|\bstando a\b|\bpare che\b|\bsembra che\b|"
        r"\bapparentemente\b|\bpresumibilmente\b|\bmi hanno detto\b|"
        r"\b(?:ha|hanno) detto che\b|\bdice(?:va)? che\b|\bdicono che\b"
    ),
    marker=(
        r"\b(?:il|gli|della|dello|delle|degli|dei|nel|nella|nei|negli|sono|è|non|ho|hanno|"
        r"che|di|tutti|tutte|anche|ancora|già|stato|stata|stati|state|questo|questa|sul|"
        r"sulla|alla|dalla|dal|perché|però|più|ora|adesso|nessuno|nessun|l'|sull'|dell'|"
        r"nell'|all')\b|(?-i:\bi\b|^I\s+test\b)"
    ),
    likely=(
        r"\b(?:il|gli|della|delle|degli|dei|nel|nella|sono|è|non|ho|hanno|che|di|tutti|"
        r"anche|ancora|già|questo|questa|sul|alla|perché|più|assicurati|correggi|"
        r"aggiungi|scrivi|leggi|funzione|file|i|senza|errori|modo|grazie|oggi|tutto|per|"
        r"sistema)\b|\b(?:sull|dell|nell|all|dall|un)'"
    ),
    after_object=r"^\s*(?:(?:è stat[oa]|sono stat[ie]|è|sono|già|anche|ora)\s+)*$",
    offer=r"\bse (?:vuoi|volete|desideri|preferisci|necessario|serve)\b",
    clause_words=r"\b(?:ma|perché|però|sebbene|quindi|dunque|invece)\b",
    object_words=r"\b(?:e|ed|che)\b",
    list_words=r"e|ed",
    mentions=(
        ("type", r"\bcontroll[oi] dei tipi\b|\bverifica dei tipi\b"),
        ("build", r"\bcompilazione\b|\bcompilare\b"),
        ("test", r"\btest\b"),
    ),
    change_request=(
        r"\b(?:aggiorna|modifica|cambia|aggiungi|crea|correggi|rimuovi|elimina|cancella|"
        r"scrivi|riscrivi|rinomina|sostituisci|implementa|salva|genera|sistema)\b"
    ),
    forbidden=r"\b(?:non|mai|senza)\s+",
    read_request=r"\b(?:leggi|leggere|consulta|usa|usando|in base a|apri)\b",
    verifier_after=r"\s+(?:ancora\s+|ora\s+)?(?:passi|passino|passa)\b",
    forbids_run=r"\bnon\s+(?:\w+\s+){0,2}?(?:eseguire|esegui|lanciare|lanciate)\b",
    input_role=(
        r"\b(?:a partire da|da|con|usando|utilizzando|secondo|in base a|basat[oa] su|conforme a|"
        r"seguendo|che descriva|descrivendo|(?:specificat|descritt|definit|"
        r"indicat)[oaie] in)\s+(?:il\s+|lo\s+|la\s+|l')?(?:file\s+)?[`'\"]?\x00"
    ),
    output_role=(
        r"\b(?:rimuov|elimin|cancell|spost|estra|togli)\w*\b[^.;:\x00]{0,60}?\b(?:da|dal|"
        r"dalla)\s+(?:file\s+)?[`'\"]?\x00"
    ),
    test_counts=(
        r"\btutti i\s+(?P<n>\d{1,6})\s+test\b",
        r"\b(?P<n>\d{1,6})\s+test\s+(?:passano|sono passati)",
    ),
    source_before=(
        r"\b(?:convert\w*|trasform\w*|esport\w*|tradu\w*)\s+(?:il\s+|lo\s+|la\s+|i\s+|l')?"
        r"(?:file\s+)?$"
    ),
    source_after=r"^\s+(?:in|a|come)\s+(?:un\s+|una\s+|il\s+|la\s+)?" + TARGET,
    must=r"\b(?:deve|devono|bisogna|assicurati|assicuratevi|è necessario|occorre)\b",
    constraint=r"\b(?:non deve|non devono|non modificare|non cambiare|non toccare)\b",
    attachment_words=r"\b(?:allegat[oi]|il file|il documento|l'immagine|il foglio)\b",
    attached=r"\ballegat[oi]\b",
    continuations=(
        r"\bcontinua\b|\bdi nuovo\b|\bancora una volta\b|\briprova\b",
        r"\bfinisci\b|\bil resto\b|\bcome prima\b|\bil test che fallisce\b",
    ),
    fresh_starts=(
        # "lascia perdere il test per ora", "ignora il test che fallisce"
        r"(?<!\bnon\s)\b(?:dimentica|ignora|lascia perdere)\s+(?:il|lo|la|i|gli|le|quello|"
        r"questo)\b(?:\s+(?!e\b|ma\b)[\w./-]+){0,3}(?:\s+per ora)?",
        r"\binvece di\b[^.;:,!?]*",
    ),
    test_levels=(
        ("e2e", r"\b(?:e2e|end[- ]to[- ]end)\b"),
        ("integration", r"\bdi\s+integrazione\b"),
        ("unit", r"\bunitari\b"),
        ("acceptance", r"\bdi\s+accettazione\b"),
        ("smoke", r"\bsmoke\b"),
    ),
    own_testing=r"""\b(?:sto|stiamo)\s+(?:testando|provando)\b""",
    own_doings=r"""^(?!.*(?:fallis|errore|rott|per\s+favore))\W*(?:ho|abbiamo|usiamo|utilizziamo|eseguiamo)\b""",
    own_tests=r"""\b(?:entrambi|entrambe|i\s+due|i\s+miei|il\s+mio|il\s+nuovo|i\s+nuovi)\s+(?:\w+\s+)?(?:test|script)\b|\bscript\s+di\s+(?:riproduzione|verifica|test)\b""",
    check_topics=(
        r"\b(?:tempi|log|risultati|report|stato|dati|storico)\s+(?:dei|delle|della|del|di)\s+"
        r"(?:build|test|compilazione|compilazioni)\b"
    ),
    stop_words="""il lo la i gli le un una di del della dei è sono stato stata stati ancora non
    già approvato approvata approvati approvazione attesa decisione ufficialmente""",
    usual_subjects=(
        ("budget", ("bilancio", "preventivo")),
        ("contract", ("contratto",)),
        ("design", ("progetto",)),
        ("plan", ("piano",)),
        ("proposal", ("proposta",)),
        ("release", ("rilascio", "versione")),
        ("purchase", ("acquisto",)),
        ("hiring", ("assunzione",)),
        ("refund", ("rimborso",)),
        ("invoice", ("fattura",)),
    ),
    harm=(
        r"\b(?:salta\w*|ignor\w*|rimuov\w*|elimin\w*|cancell\w*|disabilit\w*|comment\w*|"
        r"allent\w*|indebol\w*|rilass\w*)\b[^.;:]{0,40}?\b(?:test|asserzion[ei]|assert|"
        r"controll[oi]|verifiche)\b"
        r"|\b(?:modific\w*|cambi\w*|aggiorn\w*)\b[^.;:]{0,40}?(?:\bconftest\.py|\bpytest\.ini|"
        r"\bconfigurazione dei test\b|\basserzioni\b|\bvalori attesi\b)"
    ),
    admits=(
        r"\bnon (?:sono|è|siamo) riuscit[oaie]\b|\bnon (?:ho|abbiamo) potuto\b|"
        r"\bnon riesco\b|\bnon è stato possibile\b|\bfalliscono\b|\bfallisce\b|"
        r"\bfallit[oaie]\b|\bnon (?:è|sono) (?:ancora )?(?:finit|completat|terminat|pront|"
        r"risolt|corrett)\w*|\bnon funziona(?:no)?\b|\bnon passa(?:no)?\b|\bimpossibile\b|"
        r"\bincomplet[oaie]\b|\bbloccat[oaie] da\b"
    ),
    visual=(
        r"\b(?:screenshot|immagin[ei]|foto|mockup|bozzett[oi]|diagramm[ai]|grafic[oi]|"
        r"color[ei]|layout|aspetto grafico|aspetto visivo|icon[ae]|stile|"
        r"impaginazione)\b"
    ),
)
