"""What an answer can claim, word by word, in each language DoneCheck reads.

Data, not code: one :class:`Lexicon` per language, read by the one claim detector
in :mod:`.claims`. A row says how the language states that work is **done**
(or verified), that a **check passed** (naming tests, lint, types or a build),
that a **file was written**, or that something was **approved** — and the
words that take such a statement back: negation and pending forms (read within
the statement's own clause), conditionals (read in the whole sentence) and
reported speech (someone else said it: not the agent's claim).

Patterns are regular expressions, matched case-insensitively. Adding a
language is adding a row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["CLAUSE_BREAK", "LEXICONS", "OBJECT_BREAK", "Category", "Lexicon"]

Category = Literal["test", "lint", "type", "build", "any"]


@dataclass(frozen=True, slots=True)
class Lexicon:
    code: str
    done: str
    """The work is finished, works, is verified, is ready."""
    checks: tuple[str, ...]
    """A check passed: each pattern has named groups ``subject`` and ``verb``."""
    subjects: tuple[tuple[Category, str], ...]
    """Which kind of check a matched subject names (none: ``any``)."""
    change: str
    """A file was written: the verb that governs a path."""
    approved: tuple[str, ...]
    """Something was approved, as fact; group ``subject`` names what, when it can."""
    negation: str
    """Takes a statement back when it comes before it in the same clause."""
    conditional: str
    """Takes a statement back from the sentence's first clause or the statement's own."""
    reported: str
    """Someone else said it: takes a statement after it back."""
    unapproved: tuple[str, ...] = ()
    """Approval is pending, incomplete or refused (a source that contradicts a claim);
    group ``subject`` names what, when it can."""
    negation_after: str = ""
    """Takes a statement back when it follows it at once ("bestehen nicht", "通过不了")."""
    reach: int = 40
    """How far before a statement a negation still counts, in characters."""
    marker: str = ""
    """Words or letters that show a sentence may be in this language (empty: read
    every sentence of its script). A sentence of three words or fewer is read by
    every lexicon of its script."""
    after_object: str = ""
    """What may stand between a path and a change verb that follows it ("config.py was
    updated", "config.py を更新しました"); empty: the verb must come first."""
    next_step: str = ""
    """The agent announces what it will do next ("Now let me run …"): a last message
    that says only this ended the run mid-work."""
    asks_user: str = ""
    """The agent asks the user for something it needs to go on (a token, a key,
    access, a decision): it cannot finish without them."""


CLAUSE_BREAK = (
    r"[,;:，；：、]|\s[—–-]\s|—|\b(?:so|but|because|however|therefore|although|whereas|"
    r"pero|porque|aunque|así que|aber|weil|obwohl|deshalb|daher|mais|car|donc|cependant)\b|"
    r"所以|但是|但|因此|然后|因为|不过|ので|けど|けれど|が、"
)
"""Where a clause ends: a negation before it does not reach the next clause."""

OBJECT_BREAK = (
    CLAUSE_BREAK + r"|\b(?:and|then|which|that|while|when|where|pass(?:es)?|y|que|et|und|dass)\b|"
    r"并且|并|而且"
)
"""Where a change verb stops governing what follows ("fixed the bug and the tests in
a.py pass": the verb does not reach a.py)."""

ENGLISH = Lexicon(
    code="en",
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
        r"lint(?:er|ing)?|type[- ]?checks?|type[- ]?checking|types|mypy|ruff|pytest|jest|eslint|"
        r"tsc|ci|pipeline))\b(?:[^.\n]|\.(?=\w)){0,40}?\b(?P<verb>pass(?:es|ed|ing)?|succeed(?:s|ed)?|"
        r"success(?:ful(?:ly)?)?|(?:is |are |all )?green|(?:are |is )?(?:all )?ok|clean|"
        r"work(?:s|ing)?)\b",
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
        ("lint", r"lint|ruff|eslint|flake8|pylint"),
        ("build", r"build|compil"),
        ("test", r"test|spec|pytest|jest"),
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
        r"\b(?!(?:not|never|t|yet|be|been|being|is|was|were|are|to|and|or|if|the|a|an|this|that|"
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
        r"|approval\s+(?:\w+\s+){0,3}?(?:not|pending|outstanding|incomplete|still open)"
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
        r"\bawait(?:s|ing)?\b|\bwait(?:ing)? for\b|\bshould\b|\bwould\b|\bwill\b|\bmight\b|"
        r"\bmay\b|\bcould\b|\bneed(?:s|ed)? to\b|\bha(?:s|ve) to\b|\bmust\b|\bto be\b|"
        r"\b(?:is|are) expected\b|\bexpected to\b|\bhopefully\b|\bprobably\b|\bto make\b|"
        r"\bso that\b|\bskip(?:ped|ping)?\b|\bwithout\b|\bwhether\b|"
        r"\brequest(?:ed|ing)? (?:for )?approval\b|\bsubmit(?:ted)? for\b|\bsent for\b|"
        r"\bfor approval\b|\bask(?:ed|ing)? for\b|\bseek(?:ing)?\b|\bplan(?:ned|ning)? to\b|"
        r"\bgoing to\b|\bi (?:propose|suggest)\b|\byou (?:can|could|may|might)\b|"
        r"\bremaining\b|\bnext steps?\b|\bnobody\b|\bno one\b|\bnone\b|\bfail(?:ed|s)? to\b|"
        r"\b(?:try|tried|trying|attempt(?:ed|ing)?|want(?:ed)?|intend(?:ed)?) to\b|"
        r"\bno\b(?!\s+(?:more\s+)?(?:errors?|failures?|issues?|problems?|warnings?|"
        r"regressions?|one)\b)"
    ),
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
)

CHINESE = Lexicon(
    code="zh",
    next_step=(
        r"^\s*(?:(?:现在|接下来|然后|下面)[，,]?\s*(?:让我|我(?:将|会|要|来)?)|让我|我(?:将|会|要|来))"
        r"\s*(?:先|再|继续)?\s*(?:运行|检查|尝试|测试|验证|编写|创建|更新|修复|开始|执行|实现|添加|查看|读取)"
    ),
    asks_user=(
        r"(?:请|麻烦)(?:你|您)?(?:提供|给我|发送|分享|设置).{0,30}?(?:令牌|token|密钥|密码|凭据|权限|访问)|"
        r"我需要(?:你的|您的)?.{0,20}?(?:令牌|token|密钥|密码|凭据|权限)"
    ),
    done=(
        r"完成|搞定|做完|做好了|实现了|已实现|修复了|已修复|修好了|解决了|已解决|没(?:有)?问题|"
        r"可以合并|可以发布|可以上线|已上线|已部署|部署成功|已验证|验证通过|验证完毕|已确认|"
        r"确认无误|正常工作|正常运行|运行成功|成功运行|一切正常|没有错误|无错误|准备好了|"
        r"可以评审|可以审查|弄好了|处理好了|改好了|没毛病|能用了|可以用了|"
        r"已修復|修復了|已驗證|驗證通過|沒有問題|沒問題|沒有錯誤|無錯誤|已解決|解決了|正常運行"
    ),
    checks=(
        r"(?P<subject>(?:[A-Za-z][\w.-]*\s*)?(?:单元测试|集成测试|测试用例|测试|单测|用例|检查|构建|"
        r"编译|类型检查|單元測試|測試|檢查|構建|編譯|類型檢查|lint|Lint|CI|流水线|校验))"
        r"[^。！？\n]{0,12}?(?P<verb>通过|通過|成功|绿|綠|无误|無誤|没有问题|没问题|沒有問題|沒問題)",
        r"(?P<verb>通过)(?:了)?(?:全部|所有)(?:的)?(?P<subject>测试|检查|用例)",
        r"(?P<verb>没有|无|零)(?:失败的?|报错的?)(?P<subject>测试|用例)",
    ),
    subjects=(
        ("type", r"类型|類型"),
        ("lint", r"lint|ruff|eslint|代码检查|静态检查"),
        ("build", r"构建|编译|構建|編譯"),
        ("test", r"test|单元|测试|单测|用例|測試|單元"),
    ),
    change=(
        r"创建|新建|修改|更新|添加|新增|编写|写入|改动|改写|删除|重构|修复|实现|生成|替换|调整|"
        r"重命名|保存"
    ),
    approved=(
        r"(?P<subject>[\u4e00-\u9fffA-Za-z0-9]{1,8}?)?(?:已(?:经)?(?:被)?(?:正式)?(?:获得?|得到)?"
        r"(?:批准|获批|核准|签字|签核|签署|同意|审批通过)|(?:审批|审核|评审)(?:已(?:经)?)?通过|"
        r"(?:获得?|得到)(?:了)?(?:批准|审批|签字)|批准了(?=[。！，,.;；]|$)|已通过(?:审批|审核|评审)|获批)",
        r"(?:批准|同意)了(?P<subject>[\u4e00-\u9fffA-Za-z0-9]{1,8})",
    ),
    unapproved=(
        (
            r"未(?:获|得到|被|经)?(?:批准|获批|审批|通过审批|签字|同意|决定)|"
            r"尚未(?:获得?|得到|被)?(?:批准|获批|审批|签|通过|完成审批|完成|决定)|"
            r"(?:待|等待|正在)(?:审批|批准|签字|决定|审核|领导审批)|审批(?:中|未完成|尚未完成|还没)|"
            r"被(?:拒绝|驳回|否决|退回)|(?:拒绝|驳回|否决)了|没有(?:被)?(?:批准|通过审批|获批)|"
            r"还没(?:有)?(?:批准|获批|通过|审批)|不(?:予)?批准|(?:将|预计)(?:在|于)[^。；]{0,12}"
            r"(?:决定|审批|批准|讨论)"
        ),
    ),
    negation=(
        r"未|没有|没|沒有|沒|還沒|不|尚未|待|等待|应该|应当|應該|将会|将要|将于|将在|预计|需要|还需|仍需|是否|须|"
        r"申请审批|提交审批|送审|计划(?:在|于|要|将)|建议|可以|能否|想要|试图|尝试|打算|准备(?:在|于|要)"
    ),
    conditional=r"如果|假如|若(?!干)|一旦|只要|除非|的话|等到",
    reported=(
        r"据说|据称|听说|据报道|据了解|有人说|(?:他|她|他们|用户|客户|对方|经理)"
        r"(?:说|表示|声称|认为)"
    ),
    negation_after=r"^(?:不了|吗|么|与否|了吗|后|之后|以后|的话)",
    reach=8,
    after_object=r"^[^，。；,;！？]{0,10}$",
)

JAPANESE = Lexicon(
    code="ja",
    next_step=(
        r"^\s*(?:次に|では|それでは|続いて)?\s*.{0,20}?(?:を)?(?:実行|確認|テスト|検証|作成|更新|修正|実装|追加)"
        r"(?:します|してみます|しましょう)\s*[。.]?\s*$"
    ),
    asks_user=(
        r"(?:トークン|APIキー|キー|パスワード|認証情報|アクセス権|権限).{0,20}?(?:を)?(?:提供|教え|共有|設定|送)(?:って|"
        r"て)(?:ください|いただけますか|もらえますか)"
    ),
    done=(
        r"完了(?:しました|です|済み)?|完成しました|終わりました|終了しました|できました|(?<!承認)済みです|"
        r"対応しました|修正しました|実装しました|解決しました|確認しました|検証しました|(?<!承認)確認済み|"
        r"検証済み|動作します|動作しています|動きました|正常に動作|問題ありません|"
        r"(?:実装|修正|対応|追加|作成)し(?=、)|"
        r"エラーはありません|マージできます|準備ができました"
    ),
    checks=(
        r"(?P<subject>テスト|単体テスト|ユニットテスト|ビルド|リント|型チェック|CI|チェック|"
        r"コンパイル)[^。！？\n]{0,12}?(?P<verb>通りました|通過しました|パスしました|成功しました|"
        r"合格しました|グリーンです|通ります|パスします|成功します|通っています|パスしています)",
    ),
    subjects=(
        ("type", r"型"),
        ("lint", r"リント|lint"),
        ("build", r"ビルド|コンパイル"),
        ("test", r"テスト"),
    ),
    change=(
        r"(?:作成|更新|修正|変更|追加|編集|書き込み|削除|置き換え|実装|書き換え)"
        r"(?:しました|済み|し(?=、)|して(?:、|おきました|あります))"
    ),
    approved=(
        r"(?:(?P<subject>[\u3040-\u30ff\u4e00-\u9fffA-Za-z0-9]{1,10}?)(?:は|が|も)?)?"
        r"(?:正式に|すでに|既に)?(?:承認されました|承認済み|承認を得ました|承認が下りました|"
        r"許可されました|決裁されました|承認されています)",
    ),
    unapproved=(
        (
            r"未承認|承認待ち|承認されていません|承認されませんでした|承認されていない|却下され|"
            r"否認され|保留|承認前|まだ承認|決定(?:は|が)?[^。]{0,12}予定"
        ),
    ),
    negation=r"まだ|未|予定|待ち|べき|はず|必要|かどうか|だろう|でしょう|ずに|ないで",
    conditional=r"もし|(?:れば|たら|なら(?:ば)?|場合(?:は|には)?)(?=、|\s)",
    reported=r"によると|によれば|らしい|(?<=[るたいだ])そうです|と言って|と聞き|とのこと|と言われ",
    negation_after=(
        r"^(?:していません|していない|ていない|ていません|ません|ない|なかった|でした?か|か|"
        r"予定|次第|後)"
    ),
    reach=10,
    after_object=r"^[^、。！？]{0,24}$",
)

SPANISH = Lexicon(
    code="es",
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
        r"linter|comprobaciones|ci))\b[^.\n]{0,30}?\b(?P<verb>pasan|pasaron|han pasado|"
        r"pasa|superadas|superan|funciona(?:n)?|(?:tuvo|tienen) éxito|en verde|correctas?|"
        r"exitosas?|ok)\b",
        r"\b(?P<verb>pasan|pasaron|han pasado)\s+(?:todas\s+)?(?:las\s+|los\s+)?"
        r"(?P<subject>pruebas|tests)\b",
        r"\b(?P<subject>compila)\b(?P<verb>)",
    ),
    subjects=(
        ("type", r"tipos"),
        ("lint", r"linter|lint"),
        ("build", r"compila|build"),
        ("test", r"prueba|test"),
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
        r"actualicé|modifiqué|cambié|agregué)\b"
    ),
    after_object=r"^\s*(?:(?:ya|también)\s+)?$",
)

GERMAN = Lexicon(
    code="de",
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
        r"\b(?P<subject>(?:alle |die )?(?:Tests|Test|Unit-Tests|Build|Kompilierung|Linter|"
        r"Prüfungen|Typprüfung|CI))\b[^.\n]{0,30}?\b(?P<verb>laufen durch|läuft durch|bestehen|"
        r"besteht|bestanden|sind grün|ist grün|erfolgreich|funktionier(?:t|en)|ok)\b",
        r"\b(?P<subject>kompiliert)\b(?P<verb>)",
    ),
    subjects=(
        ("type", r"Typ"),
        ("lint", r"Lint"),
        ("build", r"Build|Kompil"),
        ("test", r"Test|Prüfung"),
    ),
    change=(
        r"\b(?:erstellt|aktualisiert|geändert|hinzugefügt|bearbeitet|geschrieben|gelöscht|"
        r"entfernt|umbenannt|ersetzt|angepasst|korrigiert|implementiert|überarbeitet)\b"
    ),
    approved=(
        r"\b(?:(?:der|die|das)\s+)?(?P<subject>[\wäöüß-]+)\s+(?:wurde|ist|wurden|sind)\s+"
        r"(?:(?:bereits|jetzt|offiziell|nun|schon)\s+)?(?:genehmigt|freigegeben|abgenommen|"
        r"bewilligt)\b",
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
)

FRENCH = Lexicon(
    code="fr",
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
        r"le linter|vérifications|ci))\b[^.\n]{0,30}?\b(?P<verb>passent|sont passés|passé|"
        r"réussissent|réussit|ont réussi|sont au vert|est au vert|sont verts|fonctionne(?:nt)?|"
        r"ok)\b",
        r"\b(?P<subject>compile)\b(?P<verb>)",
    ),
    subjects=(
        ("type", r"type"),
        ("lint", r"linter|lint"),
        ("build", r"compil|build"),
        ("test", r"test|vérification"),
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
)

LEXICONS: tuple[Lexicon, ...] = (ENGLISH, CHINESE, JAPANESE, SPANISH, GERMAN, FRENCH)
