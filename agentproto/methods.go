package agentproto

// The method table, in docs/protocol.md's order. A new method is one
// declaration here (with its params and result types in the file of its
// area), a handler registered on each face it names, and `go generate
// ./agentproto` (docs/contributing.md, "Adding an agent/* method").

// Sessions and turns (client → server).
var (
	NewSession = request[NewSessionParams, Session](Method{
		Name: "agent/newSession", Faces: LSP | Command, Since: 1,
		Command: "agentls.newSession", CommandShape: `{"mode": "plan" or "build", "title": "…"} (both optional)`,
		Doc: "starts a session (in plan mode unless mode or the configuration says otherwise)",
	})
	ListSessions = request[ListSessionsParams, ListSessionsResult](Method{
		Name: "agent/listSessions", Faces: LSP, Since: 1,
		Doc: "the workspace's sessions, newest first (sub-agents' sessions only with includeChildren)",
	})
	LoadSession = request[SessionParams, LoadedSession](Method{
		Name: "agent/loadSession", Faces: LSP, Since: 1,
		Doc: "opens a session: the session and its whole conversation",
	})
	Prompt = request[PromptParams, PromptResult](Method{
		Name: "agent/prompt", Faces: LSP, Since: 1,
		Doc: "runs a turn and answers when it ends",
	})
	PromptCommand = request[PromptParams, PromptStarted](Method{
		Name: "agentls.prompt", Faces: Command, Since: 1,
		Command: "agentls.prompt", CommandShape: `{"text": "…"} (and optionally "sessionId")`,
		Doc: "starts a turn and answers at once; without sessionId, in the current session (a new plan session if none)",
	})
	Cancel = request[SessionParams, Null](Method{
		Name: "agent/cancel", Faces: LSP | Command, Since: 1,
		Command: "agentls.cancel", CommandShape: `{"sessionId": "…"} (optional: the current session)`, CommandSession: true,
		Doc: "ends the session's turn (stopReason cancelled)",
	})
	CloseSession = request[SessionParams, Null](Method{
		Name: "agent/closeSession", Faces: LSP, Since: 3,
		Doc: "ends the session's turn and releases the session's lock in this process",
	})
	SetMode = request[SetModeParams, Session](Method{
		Name: "agent/setMode", Faces: LSP | Command, Since: 1,
		Command: "agentls.setMode", CommandShape: `{"mode": "plan" or "build"} (and optionally "sessionId")`, CommandSession: true,
		Doc: "switches the session's mode, from the next tool call",
	})
	Answer = request[AnswerParams, Accepted](Method{
		Name: "agent/answer", Faces: LSP, Since: 1,
		Doc: "answers the session's pending question; the conversation goes on in the background",
	})
	AnswerCommand = request[AnswerCommandParams, Accepted](Method{
		Name: "agentls.answer", Faces: Command, Since: 1,
		Command: "agentls.answer", CommandShape: `{"answers": {"name": value}} (and optionally "sessionId", "questionId")`, CommandSession: true,
		Doc: "agent/answer whose questionId defaults to the pending question",
	})
	ResolvePlan = request[ResolvePlanParams, Session](Method{
		Name: "agent/resolvePlan", Faces: LSP, Since: 1,
		Doc: "approves or rejects the plan awaiting approval",
	})
	ApprovePlan = request[PlanDecisionParams, ApprovePlanResult](Method{
		Name: "agentls.approvePlan", Faces: Command, Since: 1,
		Command: "agentls.approvePlan", CommandShape: `{"sessionId": "…", "planFile": "…"} (both optional: the current session; planFile, a lens's, must await approval)`, CommandSession: true,
		Doc: "agent/resolvePlan approve, or the approval question again when approving grants commands",
	})
	RejectPlan = request[PlanDecisionParams, Session](Method{
		Name: "agentls.rejectPlan", Faces: Command, Since: 1,
		Command: "agentls.rejectPlan", CommandShape: `{"reason": "…"} (and optionally "sessionId", "planFile")`, CommandSession: true,
		Doc: "agent/resolvePlan reject",
	})
	ListPlans = request[ListPlansParams, ListPlansResult](Method{
		Name: "agent/listPlans", Faces: LSP, Since: 1,
		Doc: "the plans of the workspace, newest first (as the plan_list tool)",
	})
	Compact = request[SessionParams, CompactResult](Method{
		Name: "agent/compact", Faces: LSP | ACP | Command, Since: 2,
		Command: "agentls.compact", CommandShape: `{"sessionId": "…"} (optional: the current session)`, CommandSession: true,
		Doc: "compacts the model's view of the session's history now",
	})
	ListCommands = request[ListCommandsParams, ListCommandsResult](Method{
		Name: "agent/listCommands", Faces: LSP, Since: 3,
		Doc: "the slash commands a prompt may start with",
	})
	CheckModel = request[Empty, ModelCheck](Method{
		Name: "agent/checkModel", Faces: LSP | Command, Since: 2,
		Command: "agentls.checkModel", CommandShape: `{}`,
		Doc: "can the configured model answer (one cheap request), and what confines commands",
	})
	Status = request[Empty, AgentStatus](Method{
		Name: "agent/status", Faces: LSP | Command, Since: 3,
		Command: "agentls.status", CommandShape: `{}`,
		Doc: "the sandbox, each MCP server's state (a failed one with its reason and stderr tail) and the language intelligence; no request to the model",
	})
	SetReview = request[SetReviewParams, ReviewInfo](Method{
		Name: "agent/setReview", Faces: LSP | Command, Since: 3,
		Command: "agentls.setReview", CommandShape: `{"review": "off" or "edits"} (and optionally "sessionId")`, CommandSession: true,
		Doc: "the session's review mode: off, or edits (each BUILD edit shown for review before it applies)",
	})
	ChangedFiles = request[CheckpointParams, ChangedFilesResult](Method{
		Name: "agent/changedFiles", Faces: LSP, Since: 3,
		Doc: "the files that differ now from the checkpoint taken before a message, with their line counts",
	})
	CheckpointFile = request[CheckpointFileParams, CheckpointFileText](Method{
		Name: "agent/checkpointFile", Faces: LSP, Since: 3,
		Doc: "a file as the checkpoint taken before a message has it (for a diff)",
	})
	SetTitle = request[SetTitleParams, Session](Method{
		Name: "agent/setTitle", Faces: LSP | Command, Since: 3,
		Command: "agentls.setTitle", CommandShape: `{"title": "…"} (and optionally "sessionId")`, CommandSession: true,
		Doc: "renames a session (control characters dropped, at most 60 characters); session_info_update tells the editors",
	})
	ListModels = request[ListModelsParams, ModelList](Method{
		Name: "agent/listModels", Faces: LSP, Since: 3,
		Doc: "the models to choose from (the configured ones, and the endpoint's when it answers in time) and the current ones",
	})
	SetModel = request[SetModelParams, ModelList](Method{
		Name: "agent/setModel", Faces: LSP, Since: 3,
		Doc: "the session's model for a mode (its current mode by default), kept with the session",
	})
	Rewind = request[RewindParams, RewindResult](Method{
		Name: "agent/rewind", Faces: LSP | ACP | Command, Since: 3,
		Command: "agentls.rewind", CommandShape: `{"toMessageId": "…", "what": "code" | "conversation" | "both"} (and optionally "sessionId")`, CommandSession: true,
		Doc: "the session's files, conversation or both as they were before a message",
	})
)

// Plans in the editor: commands only (the code lenses run them).
var (
	ShowPlan = request[PlanPathParams, ShownPlan](Method{
		Name: "agentls.showPlan", Faces: Command, Since: 1,
		Command: "agentls.showPlan", CommandShape: `{"path": "plans/….plan"}`,
		Doc: "shows the plan's title, status and steps in a message",
	})
	BuildPlan = request[PlanPathParams, Session](Method{
		Name: "agentls.buildPlan", Faces: Command, Since: 1,
		Command: "agentls.buildPlan", CommandShape: `{"path": "plans/….plan"}`,
		Doc: "a new build session with the plan attached; the plan becomes approved",
	})
	RequestChanges = request[SessionParams, Session](Method{
		Name: "agentls.requestChanges", Faces: Command, Since: 3,
		Command: "agentls.requestChanges", CommandShape: `{"sessionId": "…"} (optional: the current session)`, CommandSession: true,
		Doc: "rejects the plan awaiting approval with its open review comments as the reason",
	})
	ArchivePlan = request[PlanPathParams, ArchivedPlan](Method{
		Name: "agentls.archivePlan", Faces: Command, Since: 1,
		Command: "agentls.archivePlan", CommandShape: `{"path": "plans/….plan"}`,
		Doc: "the plan's status becomes archived",
	})
)

// Server → client.
var (
	Update = notification[UpdateParams](Method{
		Name: "agent/update", Faces: LSP, Since: 1, Capability: "experimental.agent",
		Doc: "one update of a session's turn (message chunks, tool calls, plan, mode, usage…)",
	})
	ModeChanged = notification[ModeChangedParams](Method{
		Name: "agent/modeChanged", Faces: LSP, Since: 1,
		Doc: "a session's mode changed, or a session was created or loaded",
	})
	AskUser = request[AskUserParams, AskUserResult](Method{
		Name: "agent/askUser", Direction: ServerRequest, Faces: LSP, Since: 1, Capability: "experimental.agent.askUser",
		Doc: "questions for the user (a question, a plan approval, a permission)",
	})
	Diagnostics = request[DiagnosticsParams, DiagnosticsResult](Method{
		Name: "agent/diagnostics", Direction: ServerRequest, Faces: LSP, Since: 3, Capability: "experimental.agent.languageIntel",
		Doc: "the editor's problems of documents, answered at once (docs/language-intel.md)",
	})
	Navigate = request[NavigateParams, NavigateResult](Method{
		Name: "agent/navigate", Direction: ServerRequest, Faces: LSP, Since: 3, Capability: "experimental.agent.languageIntel",
		Doc: "the editor's definition, references, implementation, hover or symbols (docs/language-intel.md)",
	})
)
