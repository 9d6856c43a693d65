"""The German pack: every word the review reads in it (fields: ``pack.py``)."""

from donecheck.actors.words.lang.pack import TARGET, Pack

PACK = Pack(
    code="de",
    script="latin",
    next_step=(
        r"^\s*(?:jetzt|nun|als nächstes)?\s*(?:werde ich|lass(?:e)? mich|ich werde)"
        r"\s+(?:jetzt\s+|nun\s+)?(?:\w+\s+){0,3}(?:ausführen|prüfen|testen|überprüfen|"
        r"schreiben|erstellen|aktualisieren|beheben|implementieren|hinzufügen)\b"
    ),
    asks_user=(
        r"\b(?:bitte|könnten sie|kannst du)\s+(?:\w+\s+){0,4}?(?:token|schlüssel|"
        r"api-schlüssel|passwort|zugangsdaten|zugang|berechtigung)\b"
    ),
    done=(
        r"\b(?:erledigt|fertig|abgeschlossen|funktioniert|implementiert|behoben|gelöst|"
        r"verifiziert|überprüft|geprüft|bereit (?:zum|für) (?:mergen|merge|review|release|"
        r"deployment)|keine fehler mehr|alles gut|fehlerfrei|einwandfrei)\b"
    ),
    checks=(
        r"\b(?P<subject>(?:alle |die )?(?:[\wäöüß]+-?tests|Tests|Test|Unit-Tests|Build|"
        r"Kompilierung|Linter|"
        r"Prüfungen|Typprüfung|CI|Testsuite|Test-Suite|Suite|mypy|ruff|pytest|eslint|pyright|tsc|flake8|pylint))\b"
        r"[^.\n]{0,30}?\b(?P<verb>laufen durch|läuft durch|bestehen|"
        r"besteht|bestanden|sind grün|ist grün|erfolgreich|funktionier(?:t|en)|ok|sauber|"
        r"fehlerfrei|ohne (?:Fehler|Befund|Warnungen)|(?:meldet|meldete|zeigt|zeigte|findet|"
        r"fand|liefert|lieferte|gibt|gab|hat|hatte|berichtet|wirft|ergibt|ergab)\s+keine\s+"
        r"(?:Fehler|Probleme|Warnungen|Befunde|Beanstandungen))\b",
        # "Behoben und getestet" (not when the sentence goes on to a failure)
        r"(?<![\w-])(?P<subject>(?P<verb>getestet))\b(?![^.\n]*\b(?:fehl|schlägt|scheiter))",
        r"\b(?P<subject>kompiliert)\b(?P<verb>)",
    ),
    subjects=(
        ("type", r"Typ|mypy|pyright|tsc"),
        ("lint", r"Lint|ruff|eslint|flake8|pylint"),
        ("build", r"Build|Kompil"),
        ("test", r"Test|(?<!Typ)Prüfung|Suite"),
    ),
    change=(
        r"\b(?:erstellt|aktualisiert|geändert|hinzugefügt|bearbeitet|geschrieben|gelöscht|"
        r"entfernt|umbenannt|ersetzt|angepasst|korrigiert|implementiert|überarbeitet)\b"
    ),
    approved=(
        r"\b(?:(?:der|die|das)\s+)?(?P<subject>[\wäöüß-]+(?:\s+[\wäöüß-]+){0,2}?)\s+"
        r"(?:wurde|ist|wurden|sind)\s+(?:(?:bereits|jetzt|offiziell|nun|schon)\s+)?"
        r"(?:(?:am|im|seit)\s+(?:\d{1,2}\.\s+)?[\wäöüß]+\s+)?"
        r"(?:(?:von|vom|durch)\s+(?:der\s+|dem\s+|den\s+|die\s+)?[\wäöüß-]+\s+)?"
        r"(?:genehmigt|freigegeben|abgenommen|bewilligt)\b",
        # the active voice: "Der Vorstand hat das Budget (am 3. Mai) genehmigt"
        r"\b(?!(?:niemand|keiner|keine|kein|weder|noch|nicht)\b)[\wäöüß-]+\s+(?:hat|haben)\s+"
        r"(?:(?:den|die|das)\s+)?(?P<subject>[\wäöüß-]+)\s+"
        r"(?:(?:bereits|offiziell|nun|schon)\s+)?(?:(?:am|im|seit)\s+(?:\d{1,2}\.\s+)?"
        r"[\wäöüß]+\s+)?(?:genehmigt|freigegeben|abgenommen|bewilligt)\b",
        r"\b(?!(?:niemand|keiner|keine|kein|weder|noch|nicht)\b)[\wäöüß-]+\s+"
        r"(?:genehmigte|genehmigten|bewilligte|bewilligten)\s+"
        r"(?:(?:den|die|das)\s+)?(?P<subject>[\wäöüß-]+)",
        r"\b(?:Genehmigung|Freigabe)\s+(?:für\s+(?:den |die |das )?(?P<subject>[\wäöüß-]+)\s+)?"
        r"(?:wurde\s+)?(?:erteilt|liegt vor)\b",
    ),
    unapproved=(
        (
            r"\b(?:nicht (?:genehmigt|freigegeben|bewilligt)|noch nicht (?:genehmigt|freigegeben)|"
            r"abgelehnt|ausstehend|steht (?:noch )?aus|(?:Genehmigung|Freigabe) "
            r"(?:fehlt|steht noch aus)|zurückgewiesen)\b"
        ),
    ),
    negation=(
        r"\bnicht\b|\bkein(?:e|en|er)?\b(?!\s+(?:Fehler|Probleme|Warnungen)\b)|\bnoch nicht\b|"
        r"\bnoch offen\b|\bnie\b|\bausstehend\b|\bsollte(?:n)?\b|\bkönnte(?:n)?\b|\bwird\b|"
        r"\bwerden\b|\bmuss\b|\bmüssen\b|\bwarte(?:n|t)? auf\b|\bdamit\b|\bversucht\b|"
        r"\bgeplant\b|\bsoll\b|\bob\b"
    ),
    conditional=r"\bwenn\b|\bfalls\b|\bsofern\b|\bsobald\b|\bvorausgesetzt\b",
    reported=(
        r"\blaut\b(?!\s+(?:dem |der |den )?(?:Test|Tests|Log|Ausgabe|CI|Build))|\bgemäß\b|"
        r"\bangeblich\b|\bsagte,? dass\b|\bsagen,? dass\b|\bsoll angeblich\b"
    ),
    negation_after=r"^\s*(?:nicht|noch nicht|keine?|nie)\b",
    marker=(
        r"[äöüß]|\b(?:der|die|das|den|dem|und|ist|sind|nicht|ich|habe|hat|wurde|wurden|alle|"
        r"mit|für|auf|ein|eine|es|wir|kein|keine|noch|auch|laut|wenn|jetzt)\b"
    ),
    after_object=r"^[^,.;:]{0,30}$",
    offer=r"\bwenn (?:sie|du|nötig)\b",
    clause_words=r"\b(?:aber|weil|obwohl|deshalb|daher)\b",
    object_words=r"\b(?:und|dass)\b",
    list_words=r"und",
    test_counts=(
        r"\balle\s+(?P<n>\d{1,6})\s+Tests\b",
        r"\b(?P<n>\d{1,6})\s+Tests\s+(?:bestehen|bestanden|laufen durch|sind grün)",
    ),
    mentions=(
        ("type", r"\bTypprüfung\b"),
        ("build", r"\bkompiliert?\b|\bKompilierung\b"),
    ),
    change_request=(r"\b(?:ändere|aktualisiere|füge|erstelle|behebe|entferne|schreibe)\b"),
    read_request=r"\b(?:lies|lese|lesen|nutze|verwende|anhand)\b",
    forbids_run=(
        r"\bführ(?:e|en|t)?\s+(?:\w+\s+){0,3}?nicht\s+aus\b"
        r"|\bnicht\s+(?:\w+\s+){0,2}?(?:ausführen|laufen\s+lassen|starten)\b"
    ),
    input_role=(
        r"\b(?:aus|mit|anhand|gemäß|laut|entsprechend|basierend\ auf|auf\ basis\ von|"
        r"nach\ vorgabe\ von|unter\ verwendung\ von|(?:beschrieben|angegeben|definiert|"
        r"festgelegt)\ in)\s+(?:der\s+|dem\s+|den\s+|die\s+|das\s+)?(?:datei\s+)?"
        r"[`'\"]?\x00"
    ),
    output_role=(
        r"\b(?:entfern|lösch|verschieb|extrahier|streich)\w*\b[^.;:\x00]{0,60}?\b"
        r"(?:aus|von)\s+(?:der\s+|dem\s+)?(?:datei\s+)?[`'\"]?\x00|"
        r"\x00\s+(?:entfernen|löschen|verschieben)"
    ),
    source_before=r"\b(?:konvertier\w*|umwandl\w*|wandle|exportier\w*|übersetz\w*)\s+(?:die\s+|das\s+|den\s+)?(?:datei\s+)?$",
    source_after=r"^\s+(?:in|nach|zu|als)\s+(?:eine?\s+|die\s+|das\s+)?" + TARGET,
    must=r"\b(?:muss|müssen|soll|sollen)\b",
    constraint=r"\b(?:darf nicht|dürfen nicht)\b",
    stop_words="wurde ist der die das den dem und genehmigt freigegeben noch nicht für",
    usual_subjects=(
        ("budget", ("haushalt", "etat")),
        ("contract", ("vertrag",)),
        ("design", ("entwurf",)),
        ("plan", ("planung",)),
        ("proposal", ("vorschlag",)),
        ("purchase", ("einkauf",)),
        ("hiring", ("einstellung",)),
        ("refund", ("erstattung",)),
        ("invoice", ("rechnung",)),
    ),
    harm=(
        r"\b(?:überspring\w*|lösch\w*|entfern\w*|deaktivier\w*|locker\w*|abschwäch\w*|"
        r"auskommentier\w*)\b[^.;:]{0,40}?\b(?:Tests?|Assertions?|Prüfungen?)\b"
        r"|\b(?:Tests?|Assertions?|Prüfungen?)\b[^.;:]{0,40}?\b(?:überspringen|löschen|entfernen|"
        r"deaktivieren|lockern|abschwächen|auskommentieren)\b"
    ),
    admits=(
        r"\bkonnte(?:n)? nicht\b|\bschl[äa]g(?:en|t) (?:noch |immer noch )?fehl\b|"
        r"\bfehlgeschlagen\b|"
        r"\bnicht (?:fertig|behoben|gelöst|geändert|aktualisiert|erstellt)\b|\bscheiter\w*"
    ),
    test_levels=(
        ("e2e", r"\b(?:e2e|end[- ]to[- ]end|ende[- ]zu[- ]ende)"),
        ("integration", r"\bintegrations?-?tests?"),
        ("unit", r"\b(?:unit|modul)-?tests?"),
        ("acceptance", r"\babnahme-?tests?"),
        ("smoke", r"\bsmoke-?tests?"),
    ),
    own_testing=r"""\b(?:ich|wir)\s+(?:teste|testen|probiere|probieren)\b""",
    own_doings=r"""^(?!.*(?:fehl|Fehler|kaputt|abst[üu]rz|bitte|\bdu\b|\bSie\b))\W*(?:ich|wir)\s+(?:(?:auch|bereits|schon|gerade|immer|lokal)\s+)?(?:habe|haben|hatte|hatten|nutze|nutzen|benutze|benutzen|verwende|verwenden|lasse|lassen)\b""",
    own_tests=r"""\b(?:beide|meine?n?|(?:die|der|den)\s+neuen?|die\s+zwei)\s+(?:\w+\s+)?(?:Tests?|Skripte?)\b|\b(?:Reproduktions|Verifikations|Test)skripte?\b""",
    check_topics=r"\b(?:Build|Test)(?:zeiten|zeit|logs?|ergebnisse?|berichte?|status|daten|historie)\b",
    visual=(
        r"\b(?:Screenshot|Bildschirmfoto|Bild(?:er)?|Foto|Entwurf|Mockup|Diagramm|Farbe[n]?|"
        r"Layout|Aussehen|Symbol|Schrift(?:art)?|Stil)\b"
    ),
)
