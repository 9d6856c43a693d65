"""Approval claims against sources: (answer, sources, outcome).

``outcome`` is ``backed``, ``contradicted`` or ``unbacked`` for the answer's one
approval claim, or ``none`` when the answer states no approval as fact. Sources
are texts in ledger order (request, tool outputs, attachment blocks).
"""

from __future__ import annotations

PENDING_APRIL = (
    "Budget request FY25\n"
    "Status: approval has not been completed; a decision is expected at the April meeting."
)

APPROVALS: list[tuple[str, tuple[str, ...], str]] = [
    # ---- English: the same subject backs
    ("The budget was approved.", ("The budget was approved by the CFO.",), "backed"),
    ("The budget was approved.", ("Finance approved the budget on 3 May.",), "backed"),
    ("The budget has been approved.", ("Budget: approved by the board.",), "backed"),
    ("The PR was approved.", ("Pull request #12 approved by alice.",), "backed"),
    ("The PR was approved by alice.", ("gh: reviewDecision: APPROVED for PR 12",), "backed"),
    ("The design doc was approved.", ("The design document was approved on Monday.",), "backed"),
    ("Legal signed off on the contract.", ("The contract was signed off by legal.",), "backed"),
    ("The release was approved.", ("Release 2.1 status: approved",), "backed"),
    ("The vendor contract got approved.", ("Vendor contract approved by procurement.",), "backed"),
    ("The migration plan is approved.", ("The board approved the migration plan.",), "backed"),
    ("Before merging, the PR was approved.", ("PR approved by bob.",), "backed"),
    ("No one objected, so the budget was approved.", ("The budget was approved.",), "backed"),
    ("The hiring request was approved.", ("Hiring request: approved (HR, 2 June).",), "backed"),
    ("The Q3 budget was approved.", ("The Q3 budget was approved by finance.",), "backed"),
    (
        "The budget was approved.",
        ("The budget is pending approval.", "Update: the budget is now approved."),
        "backed",
    ),
    ("The proposal received approval.", ("The proposal was approved by the committee.",), "backed"),
    ("The budget was approved.", ("The board approved the budget and the hiring plan.",), "backed"),
    ("The refund was approved by support.", ("Refund #881 approved by support.",), "backed"),
    ("The spec was approved.", ("Spec review: approved by the architecture group.",), "backed"),
    ("The change was approved.", ("Change request CR-7 was approved.",), "backed"),
    # ---- English: another subject backs nothing
    ("The budget was approved.", ("The design was approved.",), "unbacked"),
    ("The budget was approved.", ("The PR was approved by alice.",), "unbacked"),
    ("The PR was approved.", ("The budget was approved by the CFO.",), "unbacked"),
    ("The Q3 budget was approved.", ("The Q4 budget was approved.",), "unbacked"),
    ("The contract was approved.", ("The invoice was approved.",), "unbacked"),
    ("The budget was approved.", ("Please review the attached budget.",), "unbacked"),
    ("The budget was approved.", (), "unbacked"),
    ("The design was approved by the board.", ("The board met on Monday.",), "unbacked"),
    ("The hiring plan was approved.", ("The travel request was approved.",), "unbacked"),
    ("The release was approved.", ("Release notes are attached.",), "unbacked"),
    # ---- English: a source contradicts
    ("The budget was approved.", (PENDING_APRIL,), "contradicted"),
    ("The budget was approved.", ("The budget is pending approval.",), "contradicted"),
    ("The budget was approved.", ("The budget was rejected by the board.",), "contradicted"),
    ("The budget was approved.", ("The budget has not been approved yet.",), "contradicted"),
    (
        "The PR was approved.",
        ("PR 12 reviewDecision: CHANGES_REQUESTED, status: changes requested",),
        "contradicted",
    ),
    ("The PR was approved.", ("The PR is awaiting approval from a maintainer.",), "contradicted"),
    ("The contract was approved.", ("Legal declined the contract.",), "contradicted"),
    ("The contract was approved.", ("The contract is still under review.",), "contradicted"),
    (
        "The budget was approved.",
        ("The budget was approved in May.", "Correction: the budget was rejected."),
        "contradicted",
    ),
    ("The plan was approved.", ("The plan is on hold pending a decision.",), "contradicted"),
    ("The budget was approved.", ("The budget is not approved.",), "contradicted"),
    (
        "The budget was approved.",
        ("Budget\n\nApproval pending; the decision is due on Friday.",),
        "contradicted",
    ),
    # ---- English: not a claim
    ("The budget is pending approval.", ("The budget was approved.",), "none"),
    ("The PR is not yet approved.", (), "none"),
    ("I submitted the design for approval.", (), "none"),
    ("If the budget is approved, we can start.", (), "none"),
    ("Was the budget approved?", (), "none"),
    ("The user said the budget was approved.", (), "none"),
    ("I used the approved colour palette.", (), "none"),
    ("The budget needs to be approved by finance.", (), "none"),
    ("Once approved, the PR will be merged.", (), "none"),
    ("The budget awaits sign-off.", (), "none"),
    # ---- Chinese: the same subject backs
    ("预算已批准。", ("预算已获批准。",), "backed"),
    ("预算已批准。", ("董事会批准了预算。",), "backed"),
    ("合同已批准。", ("合同审批状态：已批准（张三）",), "backed"),
    ("该方案已批准。", ("方案审批已通过。",), "backed"),
    ("会议没有异议，预算已批准。", ("预算已经批准。",), "backed"),
    ("采购申请已获批。", ("采购申请已获批准（财务部）。",), "backed"),
    ("设计稿已批准。", ("设计稿已经批准，可以开发。",), "backed"),
    ("合同审批已通过。", ("合同已签署并批准。",), "backed"),
    ("预算已批准。", ("预算尚未批准。", "更新：预算已批准。"), "backed"),
    ("招聘计划已批准。", ("招聘计划已获批准。",), "backed"),
    ("发布已获批。", ("发布审批通过。",), "backed"),
    ("报销已批准。", ("报销单已批准。",), "backed"),
    # the source words it differently: a date between 已 and the verb, the object after it
    ("预算50万元已批准。", ("董事会已于1月3日批准总预算50万元。",), "backed"),
    ("预算已批准。", ("董事会已经批准了预算。",), "backed"),
    ("设计方案已批准。", ("董事会已批准设计方案。",), "backed"),
    # ---- Chinese: another subject backs nothing
    ("预算已批准。", ("设计方案已批准。",), "unbacked"),
    ("合同已批准。", ("预算已批准。",), "unbacked"),
    ("预算已批准。", (), "unbacked"),
    ("预算已批准。", ("请查看附件中的预算。",), "unbacked"),
    ("招聘计划已批准。", ("差旅申请已批准。",), "unbacked"),
    ("方案已批准。", ("合同已批准。",), "unbacked"),
    ("预算50万元已批准。", ("董事会已于1月3日申请批准总预算50万元。",), "unbacked"),  # applied for
    (
        "预算已批准。",
        ("董事会已批准设计方案。",),
        "unbacked",
    ),  # the board, the design: not the budget
    ("预算已批准。", ("预算已批准后执行。",), "unbacked"),  # "once approved"
    # ---- Chinese: a source contradicts
    ("预算已批准。", ("会议纪要：预算尚未批准，将在四月会议上决定。",), "contradicted"),
    ("预算已批准。", ("预算待审批。",), "contradicted"),
    ("预算已批准。", ("预算被驳回。",), "contradicted"),
    ("合同已批准。", ("合同还没有批准。",), "contradicted"),
    ("方案已批准。", ("方案审批中。",), "contradicted"),
    ("预算已批准。", ("预算已批准。", "更正：预算被否决了。"), "contradicted"),
    ("采购申请已获批。", ("采购申请未获批准。",), "contradicted"),
    ("合同已批准。", ("合同正在审批。",), "contradicted"),
    # ---- Chinese: not a claim
    ("预算尚未批准。", ("预算已批准。",), "none"),
    ("方案待审批。", (), "none"),
    ("如果预算批准了，我们就开始。", (), "none"),
    ("预算批准了吗？", (), "none"),
    ("据说预算已批准。", (), "none"),
    ("需要财务批准预算。", (), "none"),
    ("待确认是否批准后再上线。", (), "none"),
    ("我已提交审批申请。", (), "none"),
    # ---- issue 35: a negation by quantifier is a negation
    ("Nobody approved the 500k budget.", (), "none"),
    ("Neither the board nor finance has approved it.", (), "none"),
    ("No one has approved the budget yet.", (), "none"),
    ("尚无人批准该预算。", (), "none"),
    ("Nadie ha aprobado el presupuesto.", (), "none"),
    ("Niemand hat das Budget genehmigt.", (), "none"),
    ("Personne n'a approuvé le budget.", (), "none"),
    ("誰も予算を承認していません。", (), "none"),
    ("Nobody objected; the budget was approved.", ("The budget was approved.",), "backed"),
    # ---- issue 35: a recorded approval matches by what was approved, not its wording
    ("预算50万元已批准。", ("总预算50万元已获董事会批准。",), "backed"),
    ("预算已批准。", ("总预算50万元尚未获董事会批准。",), "contradicted"),
    ("The 500k budget was approved.", ("The board approved the 500k budget on Monday.",), "backed"),
    (
        "The board has approved the budget.",
        ("The budget of 500k was approved by the board.",),
        "backed",
    ),
    (
        "Das Budget wurde genehmigt.",
        ("Das Budget von 500k wurde vom Vorstand genehmigt.",),
        "backed",
    ),
    ("予算は承認済みです。", ("予算50万円は取締役会で承認されました。",), "backed"),
    ("The budget was approved.", ("The design was approved by the board.",), "unbacked"),
    ("预算40万元已批准。", ("总预算50万元已获董事会批准。",), "unbacked"),
]
