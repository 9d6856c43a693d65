"""The French pack: every word the review reads in it (fields: ``pack.py``)."""

from donecheck.actors.words.lang.pack import TARGET, Pack

PACK = Pack(
    code="fr",
    script="latin",
    next_step=(
        r"^\s*(?:maintenant,?\s+|ensuite,?\s+)?(?:je vais|laissez-moi|allons)\s+(?:maintenant\s+)"
        r"?(?:exécuter|lancer|vérifier|tester|écrire|créer|mettre à jour|corriger|"
        r"implémenter|ajouter)\b"
    ),
    asks_user=(
        r"\b(?:pourriez-vous|peux-tu|merci de|veuillez)\s+(?:me\s+)?(?:fournir|partager|"
        r"envoyer|donner|définir)\b.{0,60}?\b(?:jeton|token|clé|mot de passe|identifiants|"
        r"accès|autorisation)\b"
    ),
    done=(
        r"\b(?:terminée?|finie?|(?<!en )(?<!le )(?<!à )fait(?! que)|complété|complet|"
        r"fonctionne(?:nt)?|implémenté|corrigé|résolu|vérifié|validé|prêt (?:à|pour) "
        r"(?:fusionner|la revue|déployer|être fusionné)|plus d'erreurs?|aucune erreur|"
        r"pas d'erreurs?|tout est bon|c'est bon)\b"
    ),
    checks=(
        r"\b(?P<subject>(?:tous )?(?:les )?(?:tests?|tests unitaires|la compilation|le build|"
        r"le linter|le lint|lint|vérifications|ci|la suite de tests|la vérification des types|"
        r"la vérification de types|le typage|mypy|ruff|pytest|eslint|pyright|tsc|flake8|"
        r"pylint))\b[^.\n]{0,30}?\b(?P<verb>passent|sont passés|passé|passe|réussissent|"
        r"réussit|ont réussi|sont au vert|est au vert|sont verts|"
        r"fonctionne(?:nt)?|ok|(?:est )?propre|sans (?:erreurs?|avertissements?)|"
        r"(?:ne|n')\s*(?:signale|signalait|trouve|a trouvé|rapporte|remonte|détecte|a détecté|"
        r"montre|renvoie|affiche|a signalé|a remonté)\s+(?:aucune?\s+(?:erreurs?|problèmes?|"
        r"avertissements?)|rien|pas d'erreurs?))\b",
        # "Corrigé et testé" (not when the sentence goes on to a failure)
        r"(?<![\w-])(?P<subject>(?P<verb>testée?s?))\b(?![^.\n]*\b(?:échou|échec|erreur))",
        r"\b(?P<subject>compile)\b(?P<verb>)",
    ),
    subjects=(
        ("type", r"type|typage|mypy|pyright|tsc"),
        ("lint", r"linter|lint|ruff|eslint|flake8|pylint"),
        ("build", r"compil|build"),
        ("test", r"test|vérifications?(?! des types| de types)"),
    ),
    change=(
        r"\b(?:créé|mis à jour|modifié|changé|ajouté|édité|écrit|supprimé|renommé|remplacé|"
        r"corrigé|implémenté|réécrit)\b"
    ),
    approved=(
        r"\b(?:(?:le|la|les|l')\s*)?(?P<subject>[\wàâçéèêëîïôûùüÿ-]+)\s+(?:a été|est|ont été|"
        r"sont|fut)\s+(?:(?:déjà|officiellement|enfin|bien)\s+)?(?:approuvée?s?|validée?s?|"
        r"autorisée?s?)\b",
    ),
    unapproved=(
        (
            r"\b(?:pas (?:encore )?(?:été )?(?:approuvée?s?|validée?s?|autorisée?s?)|"
            r"en attente (?:d'approbation|de validation|de décision)|refusée?s?|rejetée?s?|"
            r"non approuvée?s?|la décision (?:est attendue|sera prise))"
        ),
    ),
    negation=(
        r"\bne\b|\bn'(?!y a (?:plus|aucune))|\bpas\b(?! d'erreur)|\bjamais\b|\ben attente\b|"
        r"\bdevrai(?:t|s|ent)?\b|\bpourrai(?:t|s|ent)?\b|\bva\b|\bvont\b|\bdoit\b|\bdoivent\b|"
        r"\bpour que\b|\battend(?:re|ons|s)?\b|\bessay(?:é|e)\b|\breste à\b|\bil faut\b"
    ),
    conditional=(
        r"\bsi\b|\bà condition que\b|\bsauf si\b|\bau cas où\b|\bune fois que\b|\bdès que\b"
    ),
    reported=(
        r"\b(?:selon|d'après)\b(?!\s+(?:les |le |la )?(?:tests?|log|sortie|ci|résultats?)\b)|"
        r"\bapparemment\b|\bil a dit que\b|\bils disent que\b|\bon m'a dit\b|\bsoi-disant\b"
    ),
    marker=(
        r"[àâçéèêëîïôûùœ]|\b(?:le|les|des|est|sont|pas|je|et|une?|du|tous|tout|ne|ce|ça|il|"
        r"elle|nous|vous|selon|si|au|aux|dans|pour|avec|plus|aucune)\b|\b[jndlcs]'"
    ),
    after_object=r"^\s*(?:(?:a été|ont été|est|sont)\s+)?(?:(?:bien|aussi|également)\s+)?$",
    offer=r"\bsi (?:vous|tu)\b",
    clause_words=r"\b(?:mais|car|donc|cependant)\b",
    object_words=r"\b(?:et|que)\b",
    list_words=r"et",
    test_counts=(
        r"\b(?:tous les|les)\s+(?P<n>\d{1,6})\s+tests\b",
        r"\b(?P<n>\d{1,6})\s+tests\s+(?:passent|réussissent|sont verts)",
    ),
    mentions=(
        ("type", r"\bvérification (?:de|des) types?\b"),
        ("build", r"\bcompile\b"),
    ),
    change_request=(r"\b(?:modifie|ajoute|crée|corrige|supprime|mets à jour|écris)\b"),
    read_request=r"\b(?:lis|lire|consulte|utilise|d'après)\b",
    forbids_run=(
        r"\bn(?:e\s+|')(?:lance[rz]?|exécute[rz]?)\s+pas\b|\bne\s+pas\s+(?:lancer"
        r"|exécuter)\b|\bpas\s+besoin\s+d'(?:exécuter|lancer)\b"
    ),
    input_role=(
        r"(?:\bà\ partir\ de|\bdepuis|\bavec|\ben\ utilisant|\bselon|\bd'après|"
        r"\bconformément\ à|\bbasée?s?\ sur|\ben\ suivant|\bqui\ décrit|\bdécrivant|"
        r"\b(?:spécifié|décrit|défini|indiqué|détaillé)e?s?\ dans)\s+(?:le\s+|la\s+|l')?"
        r"(?:fichier\s+)?[`'\"]?\x00"
    ),
    output_role=(
        r"\b(?:supprim|retir|enlèv|enlev|déplac|extrai)\w*\b[^.;:\x00]{0,60}?\b"
        r"(?:de|du|depuis)\s+(?:le\s+|la\s+|l')?(?:fichier\s+)?[`'\"]?\x00"
    ),
    source_before=r"\b(?:convert\w*|transform\w*|export\w*|tradui\w*)\s+(?:le\s+|la\s+|les\s+|l')?(?:fichier\s+)?$",
    source_after=r"^\s+(?:en|vers|au format)\s+(?:une?\s+|le\s+|la\s+|l')?" + TARGET,
    must=r"\b(?:doit|doivent|il faut)\b",
    constraint=r"\b(?:ne doit pas|ne doivent pas)\b",
    stop_words="le les des est été pas encore approuvé approuvée validé en attente",
    usual_subjects=(
        ("contract", ("contrat",)),
        ("design", ("conception",)),
        ("proposal", ("proposition",)),
        ("release", ("version",)),
        ("purchase", ("achat",)),
        ("hiring", ("recrutement",)),
        ("refund", ("remboursement",)),
        ("invoice", ("facture",)),
    ),
    harm=(
        r"\b(?:ignor\w*|saut\w*|supprim\w*|désactiv\w*|assoupli\w*|affaibli\w*|"
        r"comment\w*)\b[^.;:]{0,40}?\b(?:tests?|assertions?|vérifications?)\b"
    ),
    admits=(
        r"\bn'ai pas pu\b|\bn'a pas pu\b|\béchou\w*|\bpas (?:encore )?(?:terminé|fini|corrigé)\b|"
        r"\bimpossible\b"
    ),
    test_levels=(
        ("e2e", r"\b(?:e2e|end[- ]to[- ]end|de\s+bout\s+en\s+bout)\b"),
        ("integration", r"\bd'int[ée]gration\b"),
        ("unit", r"\bunitaires?\b"),
        ("acceptance", r"\bd'acceptation\b"),
        ("smoke", r"\bsmoke\b"),
    ),
    own_testing=r"""\b(?:je\s+teste|nous\s+testons|je\s+suis\s+en\s+train\s+de\s+tester)\b""",
    own_doings=r"""^(?!.*(?:échou|erreur|cass|plant|s'il\s+(?:te|vous)|\bvous\b|\btu\b))\W*(?:j'ai|nous\s+avons|on\s+a|j'utilise|nous\s+utilisons|on\s+utilise|je\s+lance|nous\s+lançons)\b""",
    own_tests=r"""\b(?:les\s+deux|mes|mon|le\s+nouveau|les\s+nouveaux)\s+(?:\w+\s+)?(?:tests?|scripts?)\b|\bscripts?\s+de\s+(?:reproduction|vérification|test)\b""",
    check_topics=(
        r"\b(?:temps|journaux|résultats?|rapports?|état|données|historique)\s+(?:de\s+|des\s+|du\s+)"
        r"(?:la\s+)?(?:compilation|tests?|builds?)\b"
    ),
    visual=(
        r"\b(?:capture d'écran|images?|photos?|maquettes?|diagrammes?|graphiques?|couleurs?|"
        r"mise en page|apparence|icônes?|polices?|style)\b"
    ),
)
