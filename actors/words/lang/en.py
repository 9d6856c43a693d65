"""The English pack: every word the review reads in it (fields: ``pack.py``)."""

from donecheck.actors.words.lang.pack import TARGET, Pack

PACK = Pack(
    code="en",
    script="latin",
    next_step=(
        r"^\s*(?:now\s+|next,?\s+|then\s+)?(?:let me|let's|i(?:'ll| will| am going to|"
        r"'m going to))\s+(?:now\s+|also\s+|next\s+)?(?:run|check|try|look|test|"
        r"verify|write|create|update|fix|start|execute|implement|add|open|read|examine|"
        r"investigate|install)\b"
    ),
    asks_user=(
        r"\b(?:please|could you|can you|would you)\s+(?:provide|share|send|give me|"
        r"set|export|grant|paste)\b.{0,60}?\b(?:token|api[ _-]?key|key|password|"
        r"credentials?|access|permission|login|secret)\b|\bi need (?:your|a|an|the)"
        r"\s+(?:[\w-]+\s+){0,3}(?:token|api[ _-]?key|password|credentials?|access|"
        r"permission|login)\b"
    ),
    done=(
        r"\b(?:done|finished|complete(?:d)?|implemented|fixed|resolved|verified|works|"
        r"working(?: now| fine| correctly| as expected)?|ready (?:to|for) "
        r"(?:merge|ship|review|release|deploy|go)|all set|good to (?:go|merge)|"
        r"no (?:more )?(?:errors|issues|problems|failures)(?: left| remain(?:ing)?)?|"
        r"(?:the )?run confirms|confirmed|all good|looks good|lgtm|shipped|wrapped up|"
        r"taken care of|sorted out|deployed|merged|succeeded|(?:ran|completed|finished) "
        r"successfully)\b"
    ),
    checks=(
        r"\b(?P<subject>(?:unit |integration |e2e |end-to-end |regression )?"
        r"(?:tests?|test suite|test cases?|specs?|checks?|builds?|compil(?:e|ation)|"
        r"lint(?:er|ing)?|type[- ]?checks?|type[- ]?checking|type[- ]?checker|types|mypy|ruff|"
        r"pytest|jest|vitest|eslint|flake8|pylint|pyright|clippy|prettier|tsc|ci|pipeline|"
        # a single test by name ("test_add now passes"), the suite, a checker by name
        r"test_\w+|\w+_test|suite|go vet|vet|golangci-lint|shellcheck|rubocop|stylelint))\b"
        r"(?:[^.\n]|\.(?=\w)){0,40}?\b(?P<verb>pass(?:es|ed|ing)?|succeed(?:s|ed)?|"
        r"success(?:ful(?:ly)?)?|(?:is |are |all )?green|(?:are |is )?(?:all )?ok|clean|"
        r"happy|work(?:s|ing)?|(?:(?:reports?|reported|found|finds|shows?|showed|gives?|gave|"
        r"returns?|returned|prints?|printed|has|had|emits?|raises?)\s+|:\s*)(?:no|zero|0)\s+"
        r"(?:errors?|issues?|problems?|findings?|diagnostics?|failures?|warnings?|"
        r"complaints?))\b",
        # "Tests: ✔", "✅ tests", "pytest ✓"
        r"\b(?P<subject>(?:unit |integration |e2e )?(?:tests?|test suite|specs?|lint(?:er|ing)?|"
        r"type[- ]?checks?|types|builds?|mypy|ruff|pytest|jest|eslint|pyright|tsc|ci))\b"
        r"\s*:?\s*(?P<verb>[✔✓✅☑🟢]\ufe0f?)",
        r"(?P<verb>[✔✓✅☑🟢]\ufe0f?)\s*(?P<subject>(?:unit |integration |e2e )?(?:tests?|"
        r"test suite|specs?|lint(?:er|ing)?|type[- ]?checks?|types|builds?|mypy|ruff|pytest|"
        r"jest|eslint|pyright|tsc|ci))\b(?!\s+(?:added|written|created|updated|removed|"
        r"to\b|for\b))",
        # "Fixed and tested.", "tested locally" (not when the sentence goes on to a failure)
        r"(?<![\w-])(?P<subject>(?P<verb>tested))\b(?![^.\n]*\b(?:fail|error|broke|red\b))",
        # "verified with the test suite", "checked it against mypy"
        r"\b(?P<verb>verified|checked|confirmed|validated)\s+(?:it\s+|this\s+|that\s+|"
        r"the (?:fix|change|changes)\s+)?(?:with|by running|using|via|against|through)\s+"
        r"(?:the\s+|our\s+|a\s+)?(?:full\s+|existing\s+|whole\s+)?(?P<subject>(?:unit |"
        r"integration |e2e )?(?:test suite|tests?|specs?|pytest|jest|mypy|ruff|eslint|"
        r"pyright|tsc|the linter|linter|type[- ]?checker|build))\b",
        # "Test results: 42/42" (all of them: the same number twice)
        r"\b(?P<subject>tests?|test results|specs?)\s*:?\s*(?P<verb>(?P<ran>\d{1,6})\s*/\s*"
        r"(?P=ran))(?!\d)",
        # "nothing is failing anymore"
        r"\b(?P<subject>nothing)\s+(?:is\s+|was\s+)?(?P<verb>failing|fails|broken)\b",
        # a runner's summary: "42 passed", "42 passed, 0 failed" (not "1 failed, 41 passed")
        r"(?<!failed, )(?<!failed; )(?<!errors, )(?<!error, )(?<![\d,.])"
        r"(?P<subject>0*[1-9]\d{0,5})\s+"
        r"(?P<verb>passed)\b(?!(?:\s*[,;]\s*\d+\s+\w+)*?\s*[,;]\s*0*[1-9]\d*\s+"
        r"(?:failed|errors?)\b)",
        # "it compiles", "tsc compiles cleanly", "the project builds fine"
        r"\b(?P<subject>(?:it|code|project|crate|package|everything|tsc|app|module|library)"
        r"\s+(?:now\s+|still\s+)?(?:compiles|builds))\b(?P<verb>(?:\s+(?:cleanly|fine|"
        r"successfully|without (?:errors|warnings)|again|now))?)",
        r"\b(?P<verb>pass(?:es|ed|ing)?)\s+(?:all\s+)?(?:the\s+|its\s+|our\s+)?"
        r"(?P<subject>tests?|checks?|specs?|test suite|lint(?:ing)?|type[- ]?checks?)\b",
        r"\b(?P<subject>everything|all)\s+(?:is\s+)?(?P<verb>green)\b",
        r"\b(?P<subject>they|these|those)\s+(?:all\s+|now\s+)*(?P<verb>pass(?:es)?)"
        r"(?=\s*(?:now|again|too|as well)?\s*(?:[.!,;]|$))",
        r"\b(?P<verb>no|zero|0)\s+(?:more\s+)?(?P<subject>failing (?:tests?|checks?)|"
        r"test failures|lint (?:errors|warnings|issues)|type errors|build errors|"
        r"compil(?:e|ation|er) errors)\b",
    ),
    subjects=(
        ("type", r"type|mypy|tsc|pyright"),
        ("lint", r"lint|ruff|eslint|flake8|pylint|clippy|prettier|vet|shellcheck|rubocop"),
        ("build", r"build|compil"),
        ("test", r"test|spec|pytest|jest|suite|^\d+$"),
    ),
    change=(
        r"\b(?:creat(?:ed|es)|add(?:ed|s)|updat(?:ed|es)|modifi(?:ed|es)|chang(?:ed|es)|"
        r"edit(?:ed|s)|wr(?:ote|itten)|rewr(?:ote|itten)|implement(?:ed|s)|refactor(?:ed|s)|"
        r"renam(?:ed|es)|remov(?:ed|es)|delet(?:ed|es)|patch(?:ed|es)|fix(?:ed|es)|"
        r"adjust(?:ed|s)|mov(?:ed|es)|replac(?:ed|es)|extend(?:ed|s)|touch(?:ed|es)|"
        r"generat(?:ed|es)|sav(?:ed|es))\b"
    ),
    approved=(
        r"\b(?:the\s+)?(?P<subject>[\w#-]+(?:\s+[\w#-]+){0,2}?)\s+(?:is|are|was|were|has been|"
        r"have been|had been|got|gets)\s+(?:(?:now|already|officially|formally|finally|also|"
        r"fully)\s+)?(?:approved|signed[ -]off|okayed|green-?lit)\b",
        r"\b(?:the\s+)?(?P<subject>[\w-]+)\s+(?:received|obtained|got|has|have|had)\s+"
        r"(?:the\s+)?(?:(?!no\b|not\b)\w+\s+){0,2}?(?:approval|sign-?off)\b",
        r"(?:(?<![\w#-])(?P<subject>[\w#-]+(?:\s+[\w#-]+){0,2}),?\s+)?\bapproved\s+by\b",
        r"\b(?:approval|sign-?off)\s+(?:(?:of|for)\s+(?:the\s+)?(?P<subject>[\w-]+(?:\s+[\w-]+)?)"
        r"\s+)?(?:was\s+|has\s+been\s+|is\s+)?(?:granted|given|obtained|received)\b",
        r"\b(?:the\s+)?(?P<subject>[\w-]+(?:\s+[\w-]+)?)\s+(?:has\s+|have\s+)?passed\s+"
        r"(?:the\s+)?(?:\w+\s+){0,2}?(?:review|approval|audit|sign-?off|inspection)\b",
        r"\bsigned\s+off\s+on\s+(?:the\s+)?(?P<subject>[\w-]+(?:\s+[\w-]+)?)",
        r"\bsigned\s+off\s+by\b",
        r"\b(?!(?:not|never|nobody|none|neither|nor|noone|t|yet|be|been|being|is|was|were|are|"
        r"to|and|or|if|the|a|an|this|that|"
        r"these|those|our|your|their|my|his|her|its|all|any|already|newly|previously|pre|"
        r"unapproved|un)\b)[A-Za-z][\w-]*\s+(?:has\s+|have\s+|had\s+)?(?:already\s+|"
        r"officially\s+|finally\s+|formally\s+)?approved\s+(?:the\s+|our\s+|your\s+|this\s+|"
        r"that\s+)?"
        r"(?P<subject>[\w-]+(?:\s+[\w-]+)?)",
        r"\b(?P<subject>[\w#-]+(?:\s+[\w#-]+){0,2}?)\s*[:=-]\s*(?:approved|signed off)\b",
    ),
    unapproved=(
        r"\b(?:the\s+)?(?P<subject>[\w#-]+(?:\s+[\w#-]+){0,2}?)\s+(?:is|are|was|were|has|have|"
        r"had|remains?)\s+(?:still\s+|also\s+)?(?:not\s+(?:yet\s+)?(?:been\s+)?(?:approved|"
        r"signed[ -]off|granted|decided)|pending\b|awaiting\b|under review|on hold|in review|"
        r"(?:been\s+)?(?:rejected|refused|declined|denied|turned down|vetoed|withdrawn|sent back)|"
        r"yet to be (?:approved|signed|decided))",
        r"\b(?:the\s+)?(?P<subject>[\w#-]+(?:\s+[\w#-]+){0,2}?)\s+(?:awaits?|needs?|requires?)\s+"
        r"(?:\w+\s+)?(?:approval|sign-?off|a decision)\b",
        r"\b(?:rejected|refused|declined|denied|vetoed|turned down)\s+(?:the\s+|our\s+|this\s+)?"
        r"(?P<subject>[\w#-]+(?:\s+[\w#-]+)?)",
        r"\b(?:not\s+(?:yet\s+|been\s+)*(?:approved|signed[ -]off|granted|decided)"
        r"|pending\s+(?:\w+\s+){0,2}?(?:approval|sign-?off|review|decision)"
        r"|await(?:s|ing)?\s+(?:\w+\s+){0,2}?(?:approval|sign-?off|decision)"
        r"|approval\s+(?:\w+\s+){0,5}?(?:not|pending|outstanding|incomplete|still open)"
        r"|unapproved|disapproved"
        r"|decision\s+(?:\w+\s+){0,3}?(?:expected|pending|due|scheduled|postponed|deferred)"
        r"|yet to be (?:approved|signed|decided)"
        r"|no\s+(?:\w+\s+)?(?:approval|sign-?off|decision)\s+(?:yet|has been|was|is)"
        r"|(?:has|have)\s+not\s+(?:yet\s+)?(?:been\s+)?(?:approved|signed|decided|completed|"
        r"given|granted))\b",
        r"\b(?P<subject>[\w#-]+(?:\s+[\w#-]+){0,2}?)\s*[:=-]\s*(?:pending|rejected|"
        r"in review|under review|awaiting \w+|changes[ _]requested|review[ _]required|"
        r"not approved|declined|on hold)\b",
    ),
    negation=(
        r"\bnot\b|n't\b|\bnever\b|\bno longer\b|\bunable\b|\bcannot\b|\byet\b|\bpending\b|"
        r"\bnobody\b|\bno[- ]one\b|\bnone\b|\bneither\b|\bnor\b|\bnothing\b|\bnowhere\b|"
        r"\bawait(?:s|ing)?\b|\bwait(?:ing)? for\b|\bshould\b|\bwould\b|\bwill\b|\bmight\b|"
        r"\bmay\b|\bcould\b|\bneed(?:s|ed)? to\b|\bha(?:s|ve) to\b|\bmust\b|\bto be\b|"
        r"\b(?:is|are) expected\b|\bexpected to\b|\bhopefully\b|\bprobably\b|\bto make\b|"
        r"\bso that\b|\bskip(?:ped|ping)?\b|\bwithout\b|\bwhether\b|"
        r"\brequest(?:ed|ing)? (?:for )?approval\b|\bsubmit(?:ted)? for\b|\bsent for\b|"
        r"\bfor approval\b|\bask(?:ed|ing)? for\b|\bseek(?:ing)?\b|\bplan(?:ned|ning)? to\b|"
        r"\bgoing to\b|\bi (?:propose|suggest)\b|\byou (?:can|could|may|might)\b|"
        r"\bremaining\b|\bnext steps?\b|\bused to\b|"
        # "Before my change the tests passed, but now 2 fail": not the state now
        r"\b(?:before|prior to) (?:my|the|this|these|your|our|any) (?:changes?|fix(?:es)?|"
        r"edits?|patch|refactor(?:ing)?)\b|\bnobody\b|\bno one\b|\bnone\b|\bfail(?:ed|s)? to\b|"
        r"\b(?:try|tried|trying|attempt(?:ed|ing)?|want(?:ed)?|intend(?:ed)?) to\b|"
        r"\bno\b(?!\s+(?:more\s+)?(?:errors?|failures?|issues?|problems?|warnings?|"
        r"regressions?|one)\b)|"
        # "Nothing is done yet", "nothing has been fixed": no work, stated as such
        r"\bnothing\s+(?:is|was|has been|have been|had been)\s+(?:yet\s+)?(?:done|finished|"
        r"complete(?:d)?|fixed|implemented|resolved|working|verified)\b"
    ),
    # "… is not done yet" said the other way round: "done yet", "fixed yet"
    negation_after=r"^\s*yet\b",
    conditional=(
        r"(?<!\bcheck )(?<!\bchecked )(?<!\bverify )(?<!\bverified )(?<!\bsee )(?<!\bsaw )"
        r"(?<!\btest )(?<!\btested )(?<!\basked )(?<!\bknow )\bif\b|\bunless\b|\bin case\b|"
        r"\bprovided (?:that\b)?|\bonce\b(?!\s+(?:again|more)\b)|\buntil\b|\bas soon as\b|"
        r"\bassuming\b"
    ),
    reported=(
        r"\baccording to\b(?!\s+(?:the\s+|my\s+|our\s+)?(?:tests?|pytest|ci|run|logs?|output|"
        r"build|linter|results?|checks?|ledger)\b)|\breportedly\b|\bsupposedly\b|\ballegedly\b|"
        r"\b(?:you|he|she|they|the user|the client|the customer|the ticket|the issue|"
        r"the email|the manager|someone|somebody)\s+(?:said|says|claims?|claimed|mentioned|"
        r"wrote|told me|reported|thinks?|thought|believes?)\b|\bi was told\b|\bit is said\b"
    ),
    after_object=r"^\s*(?:(?:was|were|is|are|has been|have been|got|now|also|successfully)\s+)+$",
    likely=(
        r"\b(?:the|and|is|are|was|were|to|of|in|it|all|tests?|please|with|this|that|fix|add)\b"
    ),
    offer=r"\bif (?:you|needed|wanted|desired|necessary)\b",
    # clauses
    clause_words=r"\b(?:so|but|because|however|therefore|although|whereas)\b",
    object_words=r"\b(?:and|then|which|that|while|when|where|pass(?:es)?)\b",
    list_words=r"and|&",
    # requests
    test_counts=(
        r"\ball\s+(?P<n>\d{1,6})\s+(?:unit\s+|integration\s+)?(?:tests?|test cases|specs)\b",
        r"\b(?P<n>\d{1,6})\s+(?:unit\s+|integration\s+)?(?:tests?|test cases|specs)\s+"
        r"(?:now\s+|all\s+)?(?:pass(?:ed|es)?|are\s+passing|succeed(?:ed)?|are\s+green)\b",
        r"\b(?P<n>\d{1,6})\s*/\s*(?P=n)\s+(?:tests?|test cases)\b",
        # not "42 passed, 3 failed"; "42 passed, 0 failed" is all of them
        # nor the "41 passed" of "1 failed, 41 passed"
        r"(?<!failed, )(?<!failed; )(?<!errors, )(?<!error, )"
        r"(?<![\d,])\b(?P<n>\d{1,6})\s+passed\b(?!\s*,\s*0*[1-9]\d*\s+failed)",
    ),
    mentions=(
        ("type", r"\btype[- ]?check(?:s|er|ing)?\b|\bmypy\b|\btsc\b|\bpyright\b"),
        ("lint", r"\blint(?:s|er|ers|ing)?\b|\bruff\b|\beslint\b|\bflake8\b|\bpylint\b"),
        (
            "build",
            r"\b(?:the|a|clean|green) builds?\b|\bbuilds? (?:pass|passes|succeeds?|cleanly)\b|"
            r"\bcompil(?:es|ation|ing)\b|\b(?:must|should|still) compile\b",
        ),
        (
            "test",
            r"\btests?\b|\btesting\b|\btest[- ]suite\b|\bpytest\b|\bjest\b|\bvitest\b|"
            r"\bspecs? pass",
        ),
    ),
    change_request=(
        r"\b(?:create|add|update|modify|change|edit|write|rewrite|implement|refactor|rename|"
        r"remove|delete|patch|fix|adjust|move|replace|extend|generate|save|put|append|"
        r"insert|convert|translate|format|bump|upgrade)\b|\bmake\b(?!\s+sure)"
    ),
    forbidden=r"\b(?:don't|do not|never|without|no need to|not)\s+",
    read_request=(
        r"\b(?:read|open|look at|see|review|inspect|study|consult|use|using|based on|from|"
        r"summari[sz]e|parse|analy[sz]e)\b"
    ),
    forbids_run=(
        r"\b(?:don't|do not|never|no need to)\s+(?:\w+\s+){0,2}?(?:run"
        r"|execute|invoke|launch)\b"
    ),
    input_role=(
        r"\b(?:from|with|using|via|describing|documenting|covering|explaining|summari[sz]ing|"
        r"according\ to|based\ on|(?:as\ )?per|follows?|following|against|matching|match|"
        r"consistent\ with|in\ line\ with|conform(?:s|ing)?\ to|compliant\ with|"
        r"in\ accordance\ with|(?:as\ )?(?:specified|described|defined|given|listed|laid\ out|"
        r"outlined|documented|stated|shown|explained)\ (?:in|by)|(?:instructions|steps|"
        r"requirements|rules|tasks?|specs?|specification|guidelines|description|details|"
        r"format|schema|examples?|data|template)\ (?:in|from|of))\s+"
        r"(?:the\s+|this\s+|that\s+)?(?:file\s+|script\s+|document\s+)?[`'\"]?\x00"
    ),
    output_role=(
        r"\b(?:remove|delete|drop|strip|move|extract|cut|take|pull|eliminate|purge|prune|"
        r"split|erase)\b[^.;:\x00]{0,60}?\bfrom\s+(?:the\s+)?(?:file\s+)?[`'\"]?\x00"
    ),
    verifier_before=r"(?:tests?|specs?|cases?) (?:in|of|from)\s+",
    verifier_after=r"\s+(?:still\s+|now\s+|all\s+)?(?:pass(?:es)?|is green|succeeds?)\b",
    source_before=r"\b(?:convert|transform|translate|export|turn|migrate|transcode)\s+(?:the\s+|this\s+|my\s+)?(?:file\s+)?$",
    source_after=r"^\s+(?:to|into|as)\s+(?:an?\s+|the\s+)?" + TARGET,
    must=(
        r"\b(?:must|should|shall|needs? to|has to|have to|required?|make sure|ensure|be sure to)"
        r"\b"
    ),
    constraint=(r"\b(?:do not|don't|never|must not|mustn't|should not|shouldn't|avoid)\b"),
    attachment_words=(
        r"\b(?:attach(?:ed|ment)s?|enclosed|the (?:file|pdf|document|image|screenshot|sheet|"
        r"spreadsheet|archive|log)s?)\b"
    ),
    attached=r"\battach(?:ed|ment)s?\b|\benclosed\b",
    continuations=(
        r"\bcontinue\b|\bkeep going\b|\bgo on\b|\bcarry on\b|\bpick up where\b",
        r"\bstill\b|\bagain\b|\bretry\b|\btry again\b|\bonce more\b",
        r"\bfinish\b|\bcomplete (?:it|this|that|the rest)\b|\bthe rest\b|\bremaining\b",
        r"\b(?:as|like) before\b|\bprevious(?:ly)?\b|\bearlier\b|\babove\b|\blast (?:run|time)\b",
        r"\b(?:that|this|the) (?:failing|failed|broken|same|red)\b",
        r"\bfix (?:it|that|this|them|those)\b|\bmake (?:it|them|that|those) pass\b",
        r"\bnow (?:make|get|fix|run|let)\b|\bdidn't work\b|\bdoes(?:n't| not) work\b",
    ),
    fresh_starts=(
        # "forget the test for now", "ignore the failing test and …": what is set aside
        r"(?<!\bdon't\s)(?<!\bdo not\s)(?<!\bnever\s)(?<!\bnot\s)"  # "don't forget the tests"
        r"\b(?:forget|ignore|drop|skip)(?:\s+about)?\s+(?:it|that|this|those|these|the)\b"
        r"(?:\s+(?!and\b|but\b|then\b)[\w./-]+){0,3}(?:\s+for now)?",
        r"\bnever ?mind\b[^.;:,!?]*",
        r"\bleave (?:it|that|this|those|these|the [\w./-]+(?: [\w./-]+)?)"
        r" (?:for now|aside|alone|be)\b",
        r"\bset (?:it|that|this|those|these|the [\w./-]+(?: [\w./-]+)?) aside\b",
        r"\binstead of\b[^.;:,!?]*",  # "write the docs instead of fixing the test"
    ),
    # approvals
    stop_words="""a an the this that these those it its it's they them their our your my his her
    all any every everything each one is are was were be been being has have had got gets get do
    does did will would should could may might must can to of for on in at by with from as and or
    but so not no yet still now already also officially formally finally fully just then
    approval approvals approved approve status state reviewdecision label sign signed signoff
    sign-off off okayed greenlit green-lit granted given obtained received pending awaiting await
    waiting decision decided expected completed complete incomplete outstanding status review
    reviewed passed rejected refused declined denied vetoed withdrawn sent back hold meeting next
    week month today tomorrow yesterday monday tuesday wednesday thursday friday saturday sunday
    january february march april may june july august september october november december who
    which what when where there here request requested submitted before after since until""",
    aliases=(("pull request", "pr"), ("merge request", "mr"), ("sign off", "signoff")),
    # a judge's line format
    verdict_labels={
        "decision": "decision|verdict",
        "completed": "completed",
        "yes": "true|yes",
        "answers": "true|false|yes|no",
        "finding": "finding|problem|issue",
        "summary": "summary",
    },
    harm=(
        r"\b(?:skip(?:ping)?|xfail|delet(?:e|ing)|remov(?:e|ing)|comment(?:ing)? out|"
        r"disabl(?:e|ing)|"
        r"loosen(?:ing)?|relax(?:ing)?|weaken(?:ing)?|deselect(?:ing)?|mark(?:ing)?)\b[^.;:]{0,40}?"
        r"\b(?:tests?|test_\w+|\w+_test|test cases?|assertions?|asserts?|checks?|gates?|ci)\b"
        r"|\b(?:edit|chang(?:e|ing)|modify(?:ing)?|updat(?:e|ing)|adjust(?:ing)?|rewrit(?:e|ing)|"
        r"alter(?:ing)?|tweak(?:ing)?)\b[^.;:]{0,40}?(?:\bconftest\.py|\bpytest\.ini|\btox\.ini|"
        r"\bsetup\.cfg|\.github/workflows|\bjest\.config|"
        r"\btest (?:configuration|config|settings)\b|"
        r"\bgates?\b|\bassertions?\b|\bexpected values?\b)"
        r"|\bmake the (?:tests?|assertions?) (?:expect|match|accept)\b"
    ),
    admits=(
        r"\b(?:still (?:fail(?:s|ing)?|broken|red|errors?|erroring|not)|"
        r"(?:could|can)(?:not|n't| not)|"
        r"unable to|(?:was|were)(?:n't| not) able|did(?:n't| not) (?:manage|succeed|work|finish|"
        r"get|pass|fix)|not (?:yet )?(?:done|finished|fixed|working|complete|resolved|passing|"
        r"updated|changed|written|created|implemented)|"
        r"fail(?:s|ed|ing)\b|gave up|giving up|blocked (?:by|on)|no (?:network|access|permission))"
    ),
    test_levels=(
        ("e2e", r"\b(?:e2e|end[- ]to[- ]end)\b"),
        ("integration", r"\bintegration\b"),
        ("unit", r"\bunit\b"),
        ("acceptance", r"\bacceptance\b"),
        ("smoke", r"\bsmoke\b"),
    ),
    own_testing=r"""\b(?:I(?:'m|\s+am)|we(?:'re|\s+are))\s+(?:just\s+|only\s+|currently\s+|now\s+)?(?:testing|trying\s+out)\b""",
    own_doings=r"""^(?!.*\b(?:fail\w*|errors?|broken|breaks?|crash\w*|please|you|your)\b)\W*(?:I|we)(?:'ve|'m|'re)?\s+(?:(?:also|already|currently|just|always|still|then|locally|now)\s+)?(?:have|had|use|used|ran|run|tried|tested|checked|built|saw|got|noticed|found|am|are|was|were|been|using|running)\b""",
    own_tests=r"""\b(?:both|the\s+two|my(?:\s+own)?|the\s+new(?:ly\s+added)?|the\s+added|(?:the\s+)?(?:reproduction|repro|verification|temporary|custom))\s+(?:\w+\s+)?(?:tests?|scripts?)\b|\btests?\s+(?:that\s+)?I\s+(?:just\s+)?(?:wrote|added|created)\b""",
    check_topics=(
        r"\b(?:builds?|tests?|lint|ci|type[- ]?check)\s+(?:times?|logs?|durations?|history|"
        r"results?|reports?|status(?:es)?|numbers?|metrics|data|ids?|artifacts?|outputs?|"
        r"counts?|coverage|matrix|badges?|dashboards?|trends?|statistics|stats)\b"
    ),
    visual=(
        r"\b(?:screenshots?|images?|pictures?|photos?|mock-?ups?|wireframes?|diagrams?|charts?|"
        r"figures?|colou?rs?|layout|looks?|looking|visual(?:ly)?|pixels?|icons?|logos?|fonts?|"
        r"styl(?:e|ed|ing)|renders?|rendered|aligned|alignment|blue|red|green|dark mode|ui)\b"
    ),
)
