"""The Portuguese pack (Brazil and Portugal): every word the review reads in it (fields:
``pack.py``).

Portuguese shares the Latin script, and so its take-back words, with English, Spanish,
German, French and Italian; ``false_friends`` keeps their "no" (here "in the") from
taking a Portuguese statement back. Its own "se" is "if" only before what a condition
opens with (a subject, an article, a verb's future subjunctive), not the Spanish or
French "se" of "se aprobó", "se sont".
"""

from donecheck.actors.words.lang.pack import TARGET, Pack

PACK = Pack(
    code="pt",
    script="latin",
    next_step=(
        # "Agora vou executar os testes.", "Deixe-me verificar …"
        r"^\s*(?:agora,?\s+|em seguida,?\s+|a seguir,?\s+|então,?\s+)?(?:vou|vamos|deixe-me|"
        r"deixa eu|irei)\s+(?:agora\s+|também\s+)?(?:executar|rodar|verificar|testar|checar|"
        r"escrever|criar|atualizar|corrigir|implementar|adicionar|examinar|ler|abrir|"
        r"instalar|investigar|conferir)\b"
    ),
    asks_user=(
        # "Você pode me fornecer o token?", "Preciso da sua chave de API."
        r"\b(?:por favor|poderia|pode|você pode|você poderia)\s+(?:me\s+)?(?:fornecer|"
        r"compartilhar|enviar|passar|informar|definir|configurar|conceder|dar)\b.{0,60}?"
        r"\b(?:token|chave|senha|credenciais|acesso|permissão|login)\b"
        r"|\bpreciso (?:de|do|da|dos|das)\s+(?:sua\s+|seu\s+|uma\s+|um\s+)?(?:[\w-]+\s+){0,3}?"
        r"(?:token|chave|senha|credenciais|acesso|permissão)\b"
    ),
    done=(
        r"\b(?:conclu[íi]d[oa]s?|conclu[íi]|terminad[oa]|terminei|finalizad[oa]|finalizei|"
        r"(?<!um )(?<!o )feito(?! de)|pront[oa]s? para (?:merge|mesclar|revisão|produção|"
        r"publicar|deploy)|(?:tudo|está|estão) pront[oa]s?|implementad[oa]s?|implementei|"
        r"corrigid[oa]s?|corrigi|resolvid[oa]s?|resolvi|verificad[oa]s?|verifiquei|"
        r"funcionando|funciona(?:m)? (?:corretamente|bem|agora)|sem erros|tudo certo|"
        r"tudo ok|tudo funciona)\b"
    ),
    checks=(
        r"\b(?P<subject>(?:os |todos os )?(?:testes?|testes unitários|testes de unidade|"
        r"compilação|build|linter|lint|verificação de tipos|verificações|checagens|ci|"
        r"pipeline|mypy|ruff|pytest|eslint|tsc|pyright|flake8|su[íi]te(?: de testes)?))\b"
        r"[^.\n]{0,30}?\b(?P<verb>passam|passaram|passou|passa|passando|ok|limp[oa]s?|"
        r"sem (?:erros?|avisos|problemas)|não (?:reporta|reportou|encontra|encontrou|mostra|"
        r"mostrou|acusa|acusou|aponta|apontou|indica|indicou)\s+(?:nenhum\s+)?(?:erros?|"
        r"problemas?|avisos?)|"
        r"(?:foram|estão) aprovad[oa]s|(?:estão|está) (?:verdes?|ok)|com sucesso|"
        r"bem-sucedid[oa]s?|funcionam|funciona)\b",
        # "Passaram todos os testes."
        r"\b(?P<verb>passam|passaram)\s+(?:todos\s+)?(?:os\s+)?(?P<subject>testes)\b",
        # "Corrigido e testado" (not when the sentence goes on to a failure)
        r"(?<![\w-])(?P<subject>(?P<verb>testad[oa]s?))\b(?![^.\n]*\bfalh)",
        # "O código compila sem erros" (not a bare "compila": Spanish and Italian say it)
        r"\b(?P<subject>compila)\s+(?P<verb>sem erros|com sucesso|corretamente)\b",
        # "Nenhum teste falhando" is said "não há testes falhando": a negation; "zero
        # falhas" is a claim
        r"\b(?P<verb>zero|0)\s+(?P<subject>falhas|erros de lint|erros de tipo|"
        r"testes falhando)\b",
    ),
    subjects=(
        ("type", r"tipo|mypy|tsc"),
        ("lint", r"lint|ruff|eslint"),
        ("build", r"compila|build"),
        ("test", r"teste|testad|falhas|pytest|su[íi]te"),
    ),
    change=(
        r"\b(?:criei|atualizei|modifiquei|alterei|mudei|adicionei|acrescentei|editei|"
        r"escrevi|reescrevi|apaguei|removi|exclu[íi]|renomeei|corrigi|implementei|"
        r"substitu[íi]|ajustei|salvei|gerei|escrit[oa]s?|criad[oa]s?|atualizad[oa]s?|"
        r"modificad[oa]s?|alterad[oa]s?|adicionad[oa]s?|gerad[oa]s?|"
        r"(?:foi|foram) (?:criad|atualizad|modificad|alterad|editad|corrigid|escrit|"
        r"removid|gerad|salv)[oa]s?)\b"
    ),
    approved=(
        # "O orçamento foi aprovado", "O contrato já está aprovado"
        r"\b(?:(?:o|a|os|as)\s+)?(?P<subject>[\w#-]+(?:\s+[\w#-]+)??)\s+(?:foi|foram|está|"
        r"estão|ficou|ficaram|tem sido)\s+(?:(?:já|oficialmente|finalmente|formalmente)\s+)?"
        r"(?:aprovad[oa]s?|autorizad[oa]s?|homologad[oa]s?)\b",
        # "O conselho aprovou o orçamento" (not "ninguém aprovou", "não aprovou")
        r"\b(?!(?:não|nunca|ninguém|nenhum|nenhuma|ainda|se|que|o|a|os|as)\b)[\w-]+\s+(?:já\s+)?"
        r"(?:aprovou|aprovaram|autorizou|autorizaram)\s+(?:o\s+|a\s+|os\s+|as\s+)?"
        r"(?P<subject>[\w-]+(?:\s+[\w-]+)?)",
        # "Aprovação concedida"
        r"\baprovação\s+(?:d[oa]s?\s+(?P<subject>[\w-]+)\s+)?(?:foi\s+)?(?:concedida|obtida|"
        r"recebida|dada)\b",
    ),
    unapproved=(
        (
            r"\b(?:não (?:foi |foram |está |estão |tem sido )?(?:aprovad|autorizad)\w*|"
            r"ainda não (?:foi |foram )?(?:aprovad|autorizad)\w*|"
            r"pendentes? de (?:aprovação|autorização|decisão)|aguardando (?:a )?(?:aprovação|"
            r"autorização|decisão)|em (?:análise|aprovação)|rejeitad[oa]s?|recusad[oa]s?|"
            r"negad[oa]s?|sem aprovação|(?:ninguém|nenhum\w*) (?:aprovou|autorizou)|"
            r"a decisão (?:é esperada|será tomada|sai))"
        ),
    ),
    negation=(
        r"\bnão\b|\bnunca\b|\bnem\b|\bjamais\b|\bninguém\b|\bnenhum(?:a|as|os)?\b|"
        r"\bnada\b|\bpendentes?\b|\baguard(?:a|am|ando)\b|\besper(?:a|am|amos|ando)\b|"
        r"\bdever(?:ia|iam|á|ão)\b|\bpoder(?:ia|iam|á|ão)\b|\bvai\b|\bvão\b|\bvou\b|"
        r"\birá\b|\birão\b|\bprecis(?:a|am|amos|o) (?:ser|de)\b|\b(?:tem|têm|temos|tenho) que\b|"
        r"\bpara que\b|\bsem\b(?!\s+(?:erros?|falhas|problemas)\b)|\btent(?:ei|ou|amos|aram|"
        r"ando|ar)\b|\ba ser\b|\bfalt(?:a|am|ando)\b|\bplanej\w+\b|\bpróximos? passos?\b"
    ),
    # "no" (em + o), "si" (oneself): another pack's take-back word, not one here
    false_friends=r"\bno\b|\bsi\b",
    conditional=(
        # "Se você instalar …", "se os testes passarem", "se necessário"
        # (not the French reflexive "de se connecter", "pour se …")
        r"(?<![-\w])(?<!\bde )(?<!\bà )(?<!\bpour )se\b(?=\s+(?:você|vocês|eu|ele|ela|eles|"
        r"elas|nós|o|a|os|as|um|uma|"
        r"tudo|houver|for|forem|estiver(?:em)?|tiver(?:em)?|puder(?:em)?|quiser(?:em)?|"
        r"necessári[oa]|possível|\w+[aeio]rem|\w+[aei]r)\b)|"
        r"\ba menos que\b|\bcaso\b(?=\s+(?:você|vocês|seja|sejam|haja|não|necessário)\b)|"
        r"\bassim que\b|\bcontanto que\b|\bdesde que\b(?=\s+\w+[ae]\b)"
    ),
    reported=(
        r"(?<![oa] )\bsegundo\b(?!\s+(?:o |a |os |as )?(?:testes?|log|saída|ci|"
        r"resultados?)\b)|\bde acordo com\b(?!\s+(?:o |a |os |as )?(?:testes?|log|saída|ci|"
        r"resultados?)\b)|\bsupostamente\b|\baparentemente\b|\bme disseram\b|"
        r"\b(?:disse|disseram|diz|dizem|afirma|afirmam|afirmou) que\b"
    ),
    marker=(
        # not "dos" (Spanish "two"), "das" (German "the"), "eu" (French "had")
        # and a first person's past: "limpei", "atualizei"
        r"[ãõç]|\w[íú]d[oa]s?\b|\bsuíte\b|\w{3,}ei\b|\b(?:não|os|do|em|sem|com|uma|um|é|foi|foram|estão|"
        r"você|vocês|também|ainda|"
        r"nenhum|nenhuma|ninguém|testes?|arquivo|isso|pelo|pela|ao|aos|às|seu|sua|já|mas|"
        r"então|agora|corrigi|atualizei|alterei|adicionei|criei|consegui)\b"
    ),
    likely=(
        r"[ãõç]|\b(?:não|os|do|dos|das|em|com|uma|um|é|foi|foram|estão|você|eu|também|"
        r"ainda|testes|arquivo|isso|pelo|pela|ao|aos|seu|sua|mas|então|garanta|"
        r"certifique-se|adicione|escreva|leia|corrija|limpe|o|sem|só|hoje|obrigad[oa])\b"
    ),
    after_object=r"^\s*(?:(?:foi|foram|já|também)\s+)*$",
    offer=r"\bse (?:quiser|desejar|preferir|for necessário|necessário|precisar)\b",
    clause_words=r"\b(?:mas|porque|porém|embora|portanto|então)\b",
    object_words=r"\b(?:e|que)\b",
    list_words=r"e",
    mentions=(
        ("type", r"\bverificação de tipos?\b|\bchecagem de tipos?\b"),
        ("build", r"\bcompilação\b|\bcompilar\b"),
        ("test", r"\btestes\b|\bteste\b"),
    ),
    change_request=(
        r"\b(?:atualize|modifique|altere|mude|adicione|acrescente|crie|corrija|remova|"
        r"apague|escreva|reescreva|edite|renomeie|substitua|implemente|salve|gere)\b"
    ),
    forbidden=r"\b(?:não|nunca|sem)\s+",
    read_request=r"\b(?:leia|ler|consulte|use|usando|com base em|segundo|abra)\b",
    verifier_after=r"\s+(?:ainda\s+|agora\s+)?(?:passe|passa|passem)\b",
    forbids_run=r"\bnão\s+(?:\w+\s+){0,2}?(?:execute|executar|rode|rodar)\b",
    input_role=(
        r"\b(?:a partir d[eoa]s?|de acordo com|conforme|segundo|com base em|baseado em|usando|"
        r"utilizando|com|seguindo|que descreva|descrevendo|(?:especificad|descrit|definid|"
        r"indicad)[oa]s? em)\s+(?:o\s+|a\s+)?(?:arquivo\s+|ficheiro\s+)?[`'\"]?\x00"
    ),
    output_role=(
        r"\b(?:remov|exclu|apag|mov|extra|tir)\w*\b[^.;:\x00]{0,60}?\b(?:de|do|"
        r"da)\s+(?:arquivo\s+)?[`'\"]?\x00"
    ),
    test_counts=(
        r"\btodos os\s+(?P<n>\d{1,6})\s+testes\b",
        r"\b(?P<n>\d{1,6})\s+testes\s+(?:passam|passaram)",
    ),
    source_before=(
        r"\b(?:convert\w*|transform\w*|export\w*|traduz\w*)\s+(?:o\s+|a\s+|os\s+)?"
        r"(?:arquivo\s+)?$"
    ),
    source_after=r"^\s+(?:para|em|como)\s+(?:um\s+|uma\s+|o\s+|a\s+)?" + TARGET,
    must=(
        r"\b(?:deve|devem|precisa|precisam|tem que|têm que|garanta|certifique-se|"
        r"é necessário|assegure-se)\b"
    ),
    constraint=r"\b(?:não deve|não devem|não altere|não modifique|não mude|nunca)\b",
    attachment_words=r"\b(?:anexo|anexos|anexad[oa]s?|o arquivo|o documento|a planilha|a imagem)\b",
    attached=r"\banex(?:o|os|ad[oa]s?)\b",
    continuations=(
        r"\bcontinu[ae]\b|\bde novo\b|\bnovamente\b|\btente outra vez\b",
        r"\btermine\b|\bo resto\b|\bcomo antes\b|\bo (?:teste|erro) que falhou\b",
    ),
    fresh_starts=(
        # "esqueça o teste por enquanto", "ignore o teste que falha"
        r"(?<!\bnão\s)\b(?:esqueça|ignore|deixe de lado)\s+(?:o|a|os|as|isso)\b"
        r"(?:\s+(?!e\b|mas\b)[\w./-]+){0,3}(?:\s+por enquanto)?",
        r"\bem vez de\b[^.;:,!?]*",
    ),
    test_levels=(
        ("e2e", r"\b(?:e2e|end[- ]to[- ]end|ponta\s+a\s+ponta)\b"),
        ("integration", r"\bde\s+integra[çc][ãa]o\b"),
        ("unit", r"\bunit[áa]ri[oa]s?\b"),
        ("acceptance", r"\bde\s+aceita[çc][ãa]o\b"),
        ("smoke", r"\bsmoke\b"),
    ),
    own_testing=r"""\b(?:estou|estamos)\s+(?:testando|a\s+testar)\b""",
    own_doings=r"""^(?!.*(?:falh|erro|quebr|por\s+favor))\W*(?:tenho|temos|usamos|utilizamos|rodei|rodamos|executei|executamos|testei|testamos)\b""",
    own_tests=r"""\b(?:ambos|ambas|os\s+dois|as\s+duas|meus?|minhas?|o\s+novo|os\s+novos|a\s+nova)\s+(?:\w+\s+)?(?:testes?|scripts?)\b|\bscripts?\s+de\s+(?:reprodução|verificação|teste)\b""",
    check_topics=(
        r"\b(?:tempos?|logs?|resultados?|relatórios?|status|dados|histórico)\s+"
        r"(?:de|da|do|das|dos)\s+(?:compilação|compilações|testes?|builds?)\b"
    ),
    stop_words="""o a os as um uma de do da dos das que se foi foram está estão ainda não já
    aprovado aprovada aprovados aprovação pendente aguardando decisão oficialmente""",
    usual_subjects=(
        ("budget", ("orçamento", "orçamentos")),
        ("contract", ("contrato",)),
        ("design", ("projeto",)),
        ("plan", ("plano",)),
        ("proposal", ("proposta",)),
        ("release", ("lançamento", "versão")),
        ("purchase", ("compra",)),
        ("hiring", ("contratação",)),
        ("refund", ("reembolso",)),
        ("invoice", ("fatura", "nota fiscal")),
    ),
    harm=(
        r"\b(?:pul(?:e|ar|ando)|ignor\w*|remov\w*|exclu\w*|apag\w*|desativ\w*|desabilit\w*|"
        r"coment\w*|afrouxa\w*|enfraquec\w*|relaxa\w*)\b[^.;:]{0,40}?\b(?:testes?|asserções|"
        r"asserção|asserts?|verificações|checagens)\b"
        r"|\b(?:edit\w*|alter\w*|modifi\w*|mud\w*)\b[^.;:]{0,40}?(?:\bconftest\.py|"
        r"\bpytest\.ini|\bconfiguração de testes\b|\basserções\b|\bvalores esperados\b)"
    ),
    admits=(
        r"\bnão (?:consegui|conseguiu|conseguimos|foi possível|pude|pôde|terminei|concluí|"
        r"finalizei|funciona|passa|passam)\b|\bainda (?:falha|falham|não)\b|"
        r"\bcontinua(?:m)? (?:falhando|a falhar|quebrad[oa]s?)\b|"
        r"\bfalh(?:a|am|ou|aram|ando)\b|\bsem sucesso\b|\bincomplet[oa]s?\b|"
        r"\bnão (?:está|estão) (?:pront|conclu|termin|corrigid|resolvid)|\bimpossível\b|"
        r"\bbloquead[oa] (?:por|pel)"
    ),
    visual=(
        r"\b(?:captura de tela|capturas de tela|imagens?|fotos?|maquetes?|mockups?|diagramas?|"
        r"gráficos?|cores|cor|layout|aparência|ícones?|tipografia|estilo|visual)\b"
    ),
)
