package guard

import (
	"fmt"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/workspace"
)

// outcome is what a row of the bypass tables expects.
type outcome int

const (
	allowed     outcome = iota
	refPlan             // refused: plan mode (RefusalMessage)
	refState            // refused: agentls's own state, every mode
	refUnknown          // refused: unclassified tool (build mode)
	refBad              // refused: arguments or target cannot be checked (build mode)
	refVCS              // refused: a version-control folder, every mode
	refCfg              // refused: agentls's configuration, every mode
	refStateDir         // refused: agentls's state folder, every mode (change)
	refNoRead           // refused: a read of agentls's state or configuration
)

func (o outcome) String() string {
	switch o {
	case allowed:
		return "allowed"
	case refPlan:
		return "refused (plan mode)"
	case refState:
		return "refused (agentls state)"
	case refUnknown:
		return "refused (unclassified tool)"
	case refBad:
		return "refused (bad target)"
	case refVCS:
		return "refused (protected folder)"
	case refCfg:
		return "refused (agentls config)"
	case refStateDir:
		return "refused (agentls state folder)"
	case refNoRead:
		return "refused (agentls state or config, read)"
	}
	return fmt.Sprintf("outcome(%d)", int(o))
}

func (o outcome) reason() Reason {
	switch o {
	case refState:
		return ReasonAgentState
	case refUnknown:
		return ReasonUnclassified
	case refBad:
		return ReasonBadTarget
	case refVCS:
		return ReasonProtected
	case refCfg, refStateDir, refNoRead:
		return ReasonAgentState
	}
	return ReasonPlanMode
}

// callRow is one attempt at a tool call: $WS and $OUT in args stand for the
// sandbox's workspace and outside folders (see sandbox).
type callRow struct {
	name  string
	setup string
	mode  agentproto.Mode
	tool  string
	args  string
	want  outcome
	kind  Kind
}

const (
	plan  = agentproto.ModePlan
	build = agentproto.ModeBuild
)

// callTable is every bypass attempt at layer 1 (CheckCall). docs/guard.md
// mirrors it (TestBypassTableDoc).
var callTable = []callRow{
	// What plan mode allows.
	{"write a new plan", "", plan, "write", `{"path":"plans/new.plan","content":"# Goal"}`, allowed, ""},
	{"overwrite an existing plan", "", plan, "write", `{"path":"plans/existing.plan","content":"x"}`, allowed, ""},
	{"edit an existing plan", "", plan, "edit", `{"path":"plans/existing.plan","old_string":"Goal","new_string":"Aim"}`, allowed, ""},
	{"touch a new plan", "", plan, "touch", `{"path":"plans/new.plan"}`, allowed, ""},
	{"plan anywhere in the workspace", "", plan, "write", `{"path":"src/design.plan","content":"x"}`, allowed, ""},
	{"plan by absolute path", "", plan, "write", `{"path":"$WS/plans/abs.plan","content":"x"}`, allowed, ""},
	{"plan by file URI", "", plan, "write", `{"path":"file://$WS/plans/uri.plan","content":"x"}`, allowed, ""},
	{"plan through a folder symlink inside", "", plan, "write", `{"path":"srclink/new.plan","content":"x"}`, allowed, ""},
	{"plan symlink to a plan", "", plan, "edit", `{"path":"plans/to-plan.plan","old_string":"a","new_string":"b"}`, allowed, ""},
	{"dot segments and double slashes", "", plan, "write", `{"path":"./plans/.//dot.plan","content":"x"}`, allowed, ""},
	{"key in another letter case", "", plan, "write", `{"PATH":"plans/new.plan","content":"x"}`, allowed, ""},
	{"plan_write without a path", "", plan, "plan_write", `{"title":"T","content":"c"}`, allowed, ""},
	{"plan_write with a null path", "", plan, "plan_write", `{"title":"T","content":"c","path":null}`, allowed, ""},
	{"plan_write with a plan path", "", plan, "plan_write", `{"title":"T","content":"c","path":"plans/x.plan"}`, allowed, ""},
	{"plan_edit a plan", "", plan, "plan_edit", `{"path":"plans/existing.plan","old_string":"a","new_string":"b"}`, allowed, ""},
	{"read a source file", "", plan, "read", `{"path":"src/main.go"}`, allowed, ""},
	{"read with garbage arguments", "", plan, "read", `not json`, allowed, ""},
	{"grep", "", plan, "grep", `{"pattern":"main"}`, allowed, ""},
	{"ls outside (read-only)", "", plan, "ls", `{"path":"/etc"}`, allowed, ""},
	{"ask_user", "", plan, "ask_user", `{"questions":[]}`, allowed, ""},
	{"exit_plan_mode", "", plan, "exit_plan_mode", `{"plan_file_path":"plans/existing.plan"}`, allowed, ""},
	{"enter_plan_mode", "", plan, "enter_plan_mode", `{}`, allowed, ""},
	{"plan_list", "", plan, "plan_list", `{}`, allowed, ""},
	{"plan_read a source file", "", plan, "plan_read", `{"path":"src/main.go"}`, allowed, ""},
	{"glob", "", plan, "glob", `{"pattern":"**/*.go"}`, allowed, ""},

	// Source files and escapes.
	{"write a source file", "", plan, "write", `{"path":"src/main.go","content":"x"}`, refPlan, KindFileEdit},
	{"edit a source file", "", plan, "edit", `{"path":"src/main.go","old_string":"main","new_string":"x"}`, refPlan, KindFileEdit},
	{"rename a symbol of a source file", "", plan, "rename", `{"path":"src/main.go","line":1,"symbol":"main","new_name":"x"}`, refPlan, KindFileEdit},
	{"rename in a session file via ..", "", build, "rename", `{"path":"src/../.agentls/chats/s1.chat","line":1,"symbol":"plan","new_name":"x"}`, refState, KindFileEdit},
	{"code: definition in plan mode is read-only", "", plan, "code", `{"op":"definition","path":"src/main.go","line":1,"symbol":"main"}`, allowed, ""},
	{"touch a new source file", "", plan, "touch", `{"path":"src/new.go"}`, refPlan, KindFileEdit},
	{"plan_write onto a source file", "", plan, "plan_write", `{"title":"T","content":"c","path":"src/main.go"}`, refPlan, KindFileEdit},
	{"plan_edit a source file", "", plan, "plan_edit", `{"path":"src/main.go","old_string":"a","new_string":"b"}`, refPlan, KindFileEdit},
	{"../ escape to a plan outside", "", plan, "write", `{"path":"../outside/secret.plan","content":"x"}`, refPlan, KindFileEdit},
	{"../../ escape to /etc", "", plan, "write", `{"path":"../../../../../../etc/passwd.plan","content":"x"}`, refPlan, KindFileEdit},
	{"absolute /etc/passwd.plan", "", plan, "write", `{"path":"/etc/passwd.plan","content":"x"}`, refPlan, KindFileEdit},
	{"absolute plan outside", "", plan, "write", `{"path":"$OUT/secret.plan","content":"x"}`, refPlan, KindFileEdit},
	{"plans/../src/main.go", "", plan, "write", `{"path":"plans/../src/main.go","content":"x"}`, refPlan, KindFileEdit},
	{"plans/x.plan/../../main.go", "", plan, "write", `{"path":"plans/x.plan/../../main.go","content":"x"}`, refPlan, KindFileEdit},
	{"'..' even when it lands on a plan", "", plan, "write", `{"path":"src/../plans/new.plan","content":"x"}`, refPlan, KindFileEdit},
	{"'..' through a folder symlink", "", plan, "write", `{"path":"deeplink/../main.plan","content":"x"}`, refPlan, KindFileEdit},
	{"folder symlink to outside", "", plan, "write", `{"path":"outlink/secret.plan","content":"x"}`, refPlan, KindFileEdit},
	{".plan symlink to a source file", "", plan, "write", `{"path":"plans/to-src.plan","content":"x"}`, refPlan, KindFileEdit},
	{".plan symlink to outside", "", plan, "edit", `{"path":"plans/to-out.plan","old_string":"a","new_string":"b"}`, refPlan, KindFileEdit},
	{"dangling .plan symlink", "", plan, "write", `{"path":"plans/dangling.plan","content":"x"}`, refPlan, KindFileEdit},
	{"hard link of a source file named .plan", "", plan, "write", `{"path":"plans/hard.plan","content":"x"}`, refPlan, KindFileEdit},
	{"touch a hard-linked .plan", "", plan, "touch", `{"path":"plans/hard.plan"}`, refPlan, KindFileEdit},
	{"symlink loop named .plan", "", plan, "write", `{"path":"plans/loop.plan","content":"x"}`, refPlan, KindFileEdit},
	{"a .plan under a file", "", plan, "write", `{"path":"src/main.go/x.plan","content":"x"}`, refPlan, KindFileEdit},
	{"foo.plan/ is a folder", "", plan, "write", `{"path":"plans/foo.plan","content":"x"}`, refPlan, KindFileEdit},

	// URIs and encodings.
	{"file URI with %2e for the dot", "", plan, "write", `{"path":"file://$WS/x%2eplan","content":"x"}`, refPlan, KindFileEdit},
	{"file URI with %2e%2e%2f", "", plan, "write", `{"path":"file://$WS/plans/%2e%2e%2fsrc%2fmain.go","content":"x"}`, refPlan, KindFileEdit},
	{"file URI with encoded ../ before a plan name", "", plan, "write", `{"path":"file://$WS/plans/%2e%2e%2f%2e%2e%2foutside%2fsecret.plan","content":"x"}`, refPlan, KindFileEdit},
	{"file URI with an encoded last letter", "", plan, "write", `{"path":"file://$WS/plans/x.pla%6e","content":"x"}`, refPlan, KindFileEdit},
	{"file URI with a query", "", plan, "write", `{"path":"file://$WS/src/main.go?x=.plan","content":"x"}`, refPlan, KindFileEdit},
	{"file URI with a fragment", "", plan, "write", `{"path":"file://$WS/src/main.go#.plan","content":"x"}`, refPlan, KindFileEdit},
	{"file URI of another host", "", plan, "write", `{"path":"file://evil.example/$WS/plans/x.plan","content":"x"}`, refPlan, KindFileEdit},
	{"file URI of /etc", "", plan, "write", `{"path":"file:///etc/passwd.plan","content":"x"}`, refPlan, KindFileEdit},
	{"literal %2e in a plain path", "", plan, "write", `{"path":"plans/x%2eplan","content":"x"}`, refPlan, KindFileEdit},
	{"literal %2f in a plan name", "", plan, "write", `{"path":"plans/a%2f..%2fb.plan","content":"x"}`, refPlan, KindFileEdit},

	// Lookalike names.
	{".PLAN", "", plan, "write", `{"path":"plans/x.PLAN","content":"x"}`, refPlan, KindFileEdit},
	{".Plan", "", plan, "write", `{"path":"plans/x.Plan","content":"x"}`, refPlan, KindFileEdit},
	{"x.plan.go", "", plan, "write", `{"path":"plans/x.plan.go","content":"x"}`, refPlan, KindFileEdit},
	{"trailing space", "", plan, "write", `{"path":"plans/x.plan ","content":"x"}`, refPlan, KindFileEdit},
	{"trailing dot", "", plan, "write", `{"path":"plans/x.plan.","content":"x"}`, refPlan, KindFileEdit},
	{"trailing slash", "", plan, "write", `{"path":"plans/x.plan/","content":"x"}`, refPlan, KindFileEdit},
	{"trailing /.", "", plan, "write", `{"path":"plans/x.plan/.","content":"x"}`, refPlan, KindFileEdit},
	{"bare .plan", "", plan, "write", `{"path":"plans/.plan","content":"x"}`, refPlan, KindFileEdit},
	{"NUL then .go", "", plan, "write", `{"path":"plans/x.plan\u0000.go","content":"x"}`, refPlan, KindFileEdit},
	{"NUL before .plan", "", plan, "write", `{"path":"src/main.go\u0000.plan","content":"x"}`, refPlan, KindFileEdit},
	{"fullwidth dot x．plan", "", plan, "write", `{"path":"plans/x\uff0eplan","content":"x"}`, refPlan, KindFileEdit},
	{"capital I in .pIan", "", plan, "write", `{"path":"plans/x.pIan","content":"x"}`, refPlan, KindFileEdit},
	{"RTL override x\\u202Enalp.go", "", plan, "write", `{"path":"src/x\u202enalp.go","content":"x"}`, refPlan, KindFileEdit},
	{"RTL override inside a .plan name", "", plan, "write", `{"path":"plans/x\u202eog.plan","content":"x"}`, refPlan, KindFileEdit},
	{"zero-width space in a .plan name", "", plan, "write", `{"path":"plans/x\u200b.plan","content":"x"}`, refPlan, KindFileEdit},
	{"newline in a .plan name", "", plan, "write", `{"path":"plans/x\n.plan","content":"x"}`, refPlan, KindFileEdit},

	// Malformed arguments.
	{"malformed JSON", "", plan, "write", `{"path":`, refPlan, KindFileEdit},
	{"arguments are an array", "", plan, "write", `["plans/x.plan"]`, refPlan, KindFileEdit},
	{"arguments are a string", "", plan, "write", `"plans/x.plan"`, refPlan, KindFileEdit},
	{"empty arguments", "", plan, "write", ``, refPlan, KindFileEdit},
	{"trailing second object", "", plan, "write", `{"path":"plans/x.plan"} {"path":"src/main.go"}`, refPlan, KindFileEdit},
	{"missing path", "", plan, "write", `{"content":"x"}`, refPlan, KindFileEdit},
	{"null path", "", plan, "edit", `{"path":null}`, refPlan, KindFileEdit},
	{"empty path", "", plan, "write", `{"path":"","content":"x"}`, refPlan, KindFileEdit},
	{"path is a number", "", plan, "write", `{"path":42,"content":"x"}`, refPlan, KindFileEdit},
	{"path is an array", "", plan, "write", `{"path":["plans/x.plan"],"content":"x"}`, refPlan, KindFileEdit},
	{"path is an object", "", plan, "write", `{"path":{"p":"plans/x.plan"},"content":"x"}`, refPlan, KindFileEdit},
	{"duplicate path keys", "", plan, "write", `{"path":"plans/x.plan","path":"src/main.go","content":"x"}`, refPlan, KindFileEdit},
	{"path and PATH", "", plan, "write", `{"path":"plans/x.plan","PATH":"src/main.go","content":"x"}`, refPlan, KindFileEdit},
	{"path and p_ath", "", plan, "write", `{"path":"plans/x.plan","p_ath":"src/main.go","content":"x"}`, refPlan, KindFileEdit},
	{"PATH alone naming a source file", "", plan, "write", `{"PATH":"src/main.go","content":"x"}`, refPlan, KindFileEdit},
	{"plan_write with path as a number", "", plan, "plan_write", `{"title":"T","content":"c","path":7}`, refPlan, KindFileEdit},

	// mv.
	{"mv plan to plan", "", plan, "mv", `{"from":"plans/existing.plan","to":"plans/renamed.plan"}`, allowed, ""},
	{"mv plan to a plan elsewhere in the workspace", "", plan, "mv", `{"from":"plans/notes.plan","to":"src/notes.plan"}`, allowed, ""},
	{"mv source into plans", "", plan, "mv", `{"from":"src/main.go","to":"plans/main.plan"}`, refPlan, KindMove},
	{"mv plan over a source file", "", plan, "mv", `{"from":"plans/existing.plan","to":"src/main.go"}`, refPlan, KindMove},
	{"mv source to source", "", plan, "mv", `{"from":"src/main.go","to":"src/main2.go"}`, refPlan, KindMove},
	{"mv a .plan symlink to a source file", "", plan, "mv", `{"from":"plans/to-src.plan","to":"plans/y.plan"}`, refPlan, KindMove},
	{"mv a plan into a foo.plan/ folder", "", plan, "mv", `{"from":"plans/existing.plan","to":"plans/foo.plan"}`, refPlan, KindMove},
	{"mv a folder named like a plan to another plan name", "", plan, "mv", `{"from":"plans/foo.plan","to":"plans/bar.plan"}`, refPlan, KindMove},
	{"touch a foo.plan/ folder", "", plan, "touch", `{"path":"plans/foo.plan"}`, refPlan, KindFileEdit},
	{"combining mark after .plan", "", plan, "write", `{"path":"plans/x.plan\u0301","content":"x"}`, refPlan, KindFileEdit},
	{"NTFS stream of a source file named .plan", "", plan, "write", `{"path":"src/main.go:x.plan","content":"x"}`, refPlan, KindFileEdit},
	{"NTFS stream .plan of a source file", "", plan, "edit", `{"path":"src/main.go:.plan","old_string":"a","new_string":"b"}`, refPlan, KindFileEdit},
	{"NTFS stream by URI", "", plan, "write", `{"path":"file://$WS/src/main.go:x.plan","content":"x"}`, refPlan, KindFileEdit},
	{"mv a plan onto an NTFS stream of a source file", "", plan, "mv", `{"from":"plans/notes.plan","to":"src/main.go:n.plan"}`, refPlan, KindMove},
	{"Windows device NUL as a plan", "", plan, "write", `{"path":"plans/nul.plan","content":"x"}`, refPlan, KindFileEdit},
	{"Windows device in any case with a trailing space", "", plan, "write", `{"path":"plans/Con .plan","content":"x"}`, refPlan, KindFileEdit},
	{"Windows device with two extensions", "", plan, "plan_write", `{"title":"T","content":"c","path":"plans/com1.draft.plan"}`, refPlan, KindFileEdit},
	{"Windows device with a superscript digit", "", plan, "touch", `{"path":"plans/LPT¹.plan"}`, refPlan, KindFileEdit},
	{"Windows device as a folder", "", plan, "write", `{"path":"plans/aux/x.plan","content":"x"}`, refPlan, KindFileEdit},
	{"Windows device by URI", "", plan, "write", `{"path":"file://$WS/plans/prn.plan","content":"x"}`, refPlan, KindFileEdit},
	{"mv a plan onto a Windows device", "", plan, "mv", `{"from":"plans/notes.plan","to":"plans/conout$.plan"}`, refPlan, KindMove},
	{"a name that only starts like a device", "", plan, "write", `{"path":"plans/console.plan","content":"x"}`, allowed, ""},
	{"a device name later in the name", "", plan, "write", `{"path":"plans/x.nul.plan","content":"x"}`, allowed, ""},
	{"mv a plan outside the workspace", "", plan, "mv", `{"from":"plans/existing.plan","to":"../outside/x.plan"}`, refPlan, KindMove},
	{"mv a plan from outside", "", plan, "mv", `{"from":"$OUT/secret.plan","to":"plans/secret.plan"}`, refPlan, KindMove},
	{"mv without to", "", plan, "mv", `{"from":"plans/existing.plan"}`, refPlan, KindMove},
	{"mv with path instead of from/to", "", plan, "mv", `{"path":"plans/existing.plan"}`, refPlan, KindMove},

	// rm.
	{"rm a plan inside plans/", "", plan, "rm", `{"path":"plans/notes.plan"}`, allowed, ""},
	{"rm an empty folder inside plans/", "", plan, "rm", `{"path":"plans/empty"}`, allowed, ""},
	{"rm an empty folder with a trailing slash", "", plan, "rm", `{"path":"plans/empty/","recursive":true}`, allowed, ""},
	{"rm a source file", "", plan, "rm", `{"path":"src/main.go"}`, refPlan, KindDelete},
	{"rm a plan outside plans/", "", plan, "rm", `{"path":"src/plans/existing.plan"}`, refPlan, KindDelete},
	{"rm a non-empty folder in plans/", "", plan, "rm", `{"path":"plans/sub"}`, refPlan, KindDelete},
	{"rm -r a non-empty folder in plans/", "", plan, "rm", `{"path":"plans/sub","recursive":true}`, refPlan, KindDelete},
	{"rm a non-plan file in plans/", "", plan, "rm", `{"path":"plans/readme.txt"}`, refPlan, KindDelete},
	{"rm the plans folder itself", "", plan, "rm", `{"path":"plans","recursive":true}`, refPlan, KindDelete},
	{"rm a folder symlink out of plans/", "", plan, "rm", `{"path":"plans/to-empty-src"}`, refPlan, KindDelete},
	{"rm a .plan symlink to a source file", "", plan, "rm", `{"path":"plans/to-src.plan"}`, refPlan, KindDelete},
	{"rm via plans/../src", "", plan, "rm", `{"path":"plans/../src/util/helper.go"}`, refPlan, KindDelete},
	{"rm outside through a folder symlink", "", plan, "rm", `{"path":"outlink/secret.plan"}`, refPlan, KindDelete},
	{"rm the workspace", "", plan, "rm", `{"path":".","recursive":true}`, refState, KindDelete},

	// mkdir.
	{"mkdir inside plans/", "", plan, "mkdir", `{"path":"plans/new"}`, allowed, ""},
	{"mkdir -p inside plans/", "", plan, "mkdir", `{"path":"plans/a/b/c"}`, allowed, ""},
	{"mkdir plans/ itself", "", plan, "mkdir", `{"path":"plans"}`, allowed, ""},
	{"mkdir plans/ when missing", setupNoPlans, plan, "mkdir", `{"path":"plans"}`, allowed, ""},
	{"mkdir in src", "", plan, "mkdir", `{"path":"src/new"}`, refPlan, KindMkdir},
	{"mkdir via plans/../src", "", plan, "mkdir", `{"path":"plans/../src/new"}`, refPlan, KindMkdir},
	{"mkdir a folder named x.plan", "", plan, "mkdir", `{"path":"plans/x.plan"}`, refPlan, KindMkdir},
	{"mkdir outside through a folder symlink", "", plan, "mkdir", `{"path":"outlink/new"}`, refPlan, KindMkdir},
	{"mkdir through a symlink out of plans/", "", plan, "mkdir", `{"path":"plans/to-empty-src/new"}`, refPlan, KindMkdir},
	{"mkdir over a file", "", plan, "mkdir", `{"path":"plans/readme.txt"}`, refPlan, KindMkdir},
	{"mkdir /tmp", "", plan, "mkdir", `{"path":"/tmp/agentls-guard-test"}`, refPlan, KindMkdir},

	// Missing parent folders: created only where mkdir may create folders.
	{"plan: a .plan in a new folder src/newpkg/", "", plan, "write", `{"path":"src/newpkg/x.plan","content":"x"}`, refPlan, KindFileEdit},
	{"plan: a .plan two new folders deep", "", plan, "write", `{"path":"docs/deep/x.plan","content":"x"}`, refPlan, KindFileEdit},
	{"plan: touch a .plan in a new folder", "", plan, "touch", `{"path":"src/newpkg/x.plan"}`, refPlan, KindFileEdit},
	{"plan: plan_write into a new folder", "", plan, "plan_write", `{"title":"T","content":"c","path":"docs/deep/x.plan"}`, refPlan, KindFileEdit},
	{"plan: edit a .plan in a new folder", "", plan, "edit", `{"path":"docs/x.plan","old_string":"a","new_string":"b"}`, refPlan, KindFileEdit},
	{"plan: mv a plan into a new folder", "", plan, "mv", `{"from":"plans/existing.plan","to":"src/newpkg/x.plan"}`, refPlan, KindMove},
	{"plan: a new folder through a folder symlink", "", plan, "write", `{"path":"srclink/newpkg/x.plan","content":"x"}`, refPlan, KindFileEdit},
	{"plan: a new folder by absolute path", "", plan, "write", `{"path":"$WS/docs/x.plan","content":"x"}`, refPlan, KindFileEdit},
	{"plan: a new folder by URI", "", plan, "write", `{"path":"file://$WS/docs/x.plan","content":"x"}`, refPlan, KindFileEdit},
	{"plan: a new folder named like a plan in plans/", "", plan, "write", `{"path":"plans/x.plan/y.plan","content":"x"}`, refPlan, KindFileEdit},
	{"plan: a .plan in a new folder inside plans/", "", plan, "write", `{"path":"plans/newdir/x.plan","content":"x"}`, allowed, ""},
	{"plan: a .plan two new folders deep inside plans/", "", plan, "touch", `{"path":"plans/a/b/x.plan"}`, allowed, ""},
	{"plan: mv a plan into a new folder inside plans/", "", plan, "mv", `{"from":"plans/notes.plan","to":"plans/done/notes.plan"}`, allowed, ""},
	{"plan: a plan in a missing plans/", setupNoPlans, plan, "write", `{"path":"plans/x.plan","content":"x"}`, allowed, ""},
	{"plan: a plan in a new folder of a missing plans/", setupNoPlans, plan, "write", `{"path":"plans/a/x.plan","content":"x"}`, allowed, ""},
	{"plans/ symlinked to src/plans: a plan in a new folder", setupPlansInSrc, plan, "write", `{"path":"plans/new/x.plan","content":"x"}`, refPlan, KindFileEdit},
	{"build: a file in new folders", "", build, "write", `{"path":"src/newpkg/deep/x.go","content":"x"}`, allowed, ""},
	{"build: mv into new folders", "", build, "mv", `{"from":"src/main.go","to":"cmd/app/main.go"}`, allowed, ""},

	// A symlinked plans folder.
	{"plans/ symlinked outside: write", setupPlansOut, plan, "write", `{"path":"plans/x.plan","content":"x"}`, refPlan, KindFileEdit},
	{"plans/ symlinked outside: mkdir", setupPlansOut, plan, "mkdir", `{"path":"plans/new"}`, refPlan, KindMkdir},
	{"plans/ symlinked outside: rm", setupPlansOut, plan, "rm", `{"path":"plans/secret.plan"}`, refPlan, KindDelete},
	{"plans/ symlinked to src/plans: mkdir", setupPlansInSrc, plan, "mkdir", `{"path":"plans/new"}`, refPlan, KindMkdir},
	{"plans/ symlinked to src/plans: rm", setupPlansInSrc, plan, "rm", `{"path":"plans/existing.plan"}`, refPlan, KindDelete},
	{"plans/ symlinked to src/plans: write a plan", setupPlansInSrc, plan, "write", `{"path":"plans/x.plan","content":"x"}`, allowed, ""},

	// run, unknown tools.
	{"run a command", "", plan, "run", `{"command":"go test ./..."}`, refPlan, KindExecute},
	{"run anything", "", plan, "run", `{"command":"echo hi > plans/x.plan"}`, refPlan, KindExecute},
	{"run with garbage", "", plan, "run", `garbage`, refPlan, KindExecute},
	{"unknown tool", "", plan, "bash", `{"command":"rm -rf /"}`, refPlan, KindOther},
	{"tool name in another case", "", plan, "Write", `{"path":"plans/x.plan"}`, refPlan, KindOther},
	{"empty tool name", "", plan, "", `{}`, refPlan, KindOther},
	{"unknown mode is plan mode", "", agentproto.Mode("BUILD "), "write", `{"path":"src/main.go","content":"x"}`, refPlan, KindFileEdit},

	// agentls's own state.
	{"plan: write a session file", "", plan, "write", `{"path":".agentls/chats/s1.chat","content":"mode: build"}`, refState, KindFileEdit},
	{"plan: a .plan inside .agentls/", "", plan, "write", `{"path":".agentls/x.plan","content":"x"}`, refState, KindFileEdit},
	{"build: write a session file", "", build, "write", `{"path":".agentls/chats/s1.chat","content":"mode: build"}`, refState, KindFileEdit},
	{"build: edit a session file via ..", "", build, "edit", `{"path":"src/../.agentls/chats/s1.chat","old_string":"plan","new_string":"build"}`, refState, KindFileEdit},
	{"build: session file by absolute path", "", build, "write", `{"path":"$WS/.agentls/chats/s1.chat","content":"x"}`, refState, KindFileEdit},
	{"build: session file by URI", "", build, "write", `{"path":"file://$WS/.agentls/chats/s1.chat","content":"x"}`, refState, KindFileEdit},
	{"build: session file through a symlink", "", build, "write", `{"path":"chatslink/s1.chat","content":"x"}`, refState, KindFileEdit},
	{"build: .AGENTLS in another case", "", build, "write", `{"path":".AGENTLS/chats/s1.chat","content":"x"}`, refState, KindFileEdit},
	{"build: touch in .agentls/", "", build, "touch", `{"path":".agentls/chats/new.chat"}`, refState, KindFileEdit},
	{"build: write the checkpoint digest cache", "", build, "write", `{"path":".agentls/checkpoints/.hashes","content":"x"}`, refState, KindFileEdit},
	{"build: edit a checkpoint manifest", "", build, "edit", `{"path":".agentls/checkpoints/s1/m1.json","old_string":"a","new_string":"b"}`, refState, KindFileEdit},
	{"plan: plan_write onto a session's known.json", "", plan, "plan_write", `{"title":"T","content":"{}","path":".agentls/checkpoints/s1/known.json"}`, refState, KindFileEdit},
	{"plan: a .plan among the checkpoints", "", plan, "write", `{"path":".agentls/checkpoints/s1/x.plan","content":"x"}`, refState, KindFileEdit},
	{"build: mv a file over a checkpoint object", "", build, "mv", `{"from":"README.md","to":".agentls/checkpoints/objects/abab"}`, refState, KindMove},
	{"build: rm the checkpoint store", "", build, "rm", `{"path":".agentls/checkpoints","recursive":true}`, refState, KindDelete},
	{"build: a session's .meta by URI with %2e", "", build, "write", `{"path":"file://$WS/%2eagentls/chats/s1.meta","content":"mode: build"}`, refState, KindFileEdit},
	{"build: mkdir in .agentls/", "", build, "mkdir", `{"path":".agentls/chats/x"}`, refState, KindMkdir},
	{"build: rm .agentls/", "", build, "rm", `{"path":".agentls","recursive":true}`, refState, KindDelete},
	{"build: rm the workspace", "", build, "rm", `{"path":".","recursive":true}`, refState, KindDelete},
	{"build: mv a file into .agentls/", "", build, "mv", `{"from":"src/main.go","to":".agentls/chats/s1.chat"}`, refState, KindMove},
	{"build: mv a session file out", "", build, "mv", `{"from":".agentls/chats/s1.chat","to":"s1.chat"}`, refState, KindMove},
	{"build: plan_write into .agentls/", "", build, "plan_write", `{"title":"T","content":"c","path":".agentls/x.plan"}`, refState, KindFileEdit},

	// Version-control folders (.git, .hg, .svn, .jj): every mode, any
	// depth, any letter case, .git as a file too.
	{"plan: a .plan in .git/index.lock/", "", plan, "write", `{"path":".git/index.lock/x.plan","content":"x"}`, refVCS, KindFileEdit},
	{"plan: a .plan as a branch", "", plan, "write", `{"path":".git/refs/heads/x.plan","content":"x"}`, refVCS, KindFileEdit},
	{"plan: touch .git/index.lock", "", plan, "touch", `{"path":".git/index.lock"}`, refVCS, KindFileEdit},
	{"plan: .GIT in another case", "", plan, "write", `{"path":".GIT/refs/heads/x.plan","content":"x"}`, refVCS, KindFileEdit},
	{"plan: .git with a zero-width non-joiner", "", plan, "write", `{"path":".g\u200cit/refs/heads/x.plan","content":"x"}`, refVCS, KindFileEdit},
	{"plan: .git. with a trailing dot", "", plan, "write", `{"path":".git./refs/heads/x.plan","content":"x"}`, refVCS, KindFileEdit},
	{"plan: a .plan by URI in .git/", "", plan, "write", `{"path":"file://$WS/.git/x.plan","content":"x"}`, refVCS, KindFileEdit},
	{"plan: a .plan through a symlink into .git/", "", plan, "write", `{"path":"gitlink/heads/x.plan","content":"x"}`, refVCS, KindFileEdit},
	{"plan: a .plan in a nested .svn/", "", plan, "write", `{"path":"vendor/dep/.svn/x.plan","content":"x"}`, refVCS, KindFileEdit},
	{"plan: a .plan in .hg/", "", plan, "plan_write", `{"title":"T","content":"c","path":".hg/x.plan"}`, refVCS, KindFileEdit},
	{"plan: a .plan in .jj/ (a symlink)", "", plan, "write", `{"path":".jj/x.plan","content":"x"}`, refVCS, KindFileEdit},
	{"plan: a .plan in the folder .jj points to", "", plan, "write", `{"path":"jjstore/repo/x.plan","content":"x"}`, refVCS, KindFileEdit},
	{"plan: mv a plan into .git/", "", plan, "mv", `{"from":"plans/existing.plan","to":".git/x.plan"}`, refVCS, KindMove},
	{"plan: mkdir plans/.git", "", plan, "mkdir", `{"path":"plans/.git"}`, refVCS, KindMkdir},
	{"plan: rm a .plan in plans/.hg/", "", plan, "rm", `{"path":"plans/.hg/x.plan"}`, refVCS, KindDelete},
	{"plan: a plan named .git.plan", "", plan, "write", `{"path":"plans/.git.plan","content":"x"}`, allowed, ""},
	{"build: write .git/config", "", build, "write", `{"path":".git/config","content":"x"}`, refVCS, KindFileEdit},
	{"build: edit .git/HEAD via ..", "", build, "edit", `{"path":"src/../.git/HEAD","old_string":"main","new_string":"x"}`, refVCS, KindFileEdit},
	{"build: .git/config by absolute path", "", build, "write", `{"path":"$WS/.git/config","content":"x"}`, refVCS, KindFileEdit},
	{"build: .Git/config in another case", "", build, "write", `{"path":".Git/config","content":"x"}`, refVCS, KindFileEdit},
	{"build: a hook via .. through a symlink into .git/", "", build, "write", `{"path":"gitlink/../hooks/pre-commit","content":"x"}`, refBad, KindFileEdit},
	{"build: overwrite a submodule's .git file", "", build, "write", `{"path":"mod/.git","content":"gitdir: /tmp"}`, refVCS, KindFileEdit},
	{"build: rm a submodule's .git file", "", build, "rm", `{"path":"mod/.git"}`, refVCS, KindDelete},
	{"build: rm a folder holding a .git file", "", build, "rm", `{"path":"mod","recursive":true}`, refVCS, KindDelete},
	{"build: rm a folder holding a nested .svn/", "", build, "rm", `{"path":"vendor","recursive":true}`, refVCS, KindDelete},
	{"build: mv .git away", "", build, "mv", `{"from":".git","to":"git-old"}`, refVCS, KindMove},
	{"build: mv a folder holding .git", "", build, "mv", `{"from":"mod","to":"mod2"}`, refVCS, KindMove},
	{"build: mv a file over .git/HEAD", "", build, "mv", `{"from":"src/main.go","to":".git/HEAD"}`, refVCS, KindMove},
	{"build: mkdir a new .git", "", build, "mkdir", `{"path":"src/.git"}`, refVCS, KindMkdir},
	{"build: touch .hg/store/lock", "", build, "touch", `{"path":".hg/store/lock"}`, refVCS, KindFileEdit},
	{"build: rm .jj/", "", build, "rm", `{"path":".jj","recursive":true}`, refVCS, KindDelete},
	{"build: write where .jj points", "", build, "write", `{"path":"jjstore/repo/op","content":"x"}`, refVCS, KindFileEdit},
	{"build: read .git/HEAD", "", build, "read", `{"path":".git/HEAD"}`, allowed, ""},
	{"build: write .gitignore", "", build, "write", `{"path":".gitignore","content":"x"}`, allowed, ""},
	{"build: write .github/workflows/ci.yml", "", build, "write", `{"path":".github/workflows/ci.yml","content":"x"}`, allowed, ""},

	// agentls's configuration: .agentls.yaml at any depth, the --config
	// file, the user's config folder; every mode.
	{"plan: write .agentls.yaml", "", plan, "write", `{"path":".agentls.yaml","content":"plan_mode:\n  default_active: false\n"}`, refCfg, KindFileEdit},
	{"plan: a .plan below .agentls.yaml", "", plan, "write", `{"path":".agentls.yaml/x.plan","content":"x"}`, refCfg, KindFileEdit},
	{"plan: mv a plan over .agentls.yaml", "", plan, "mv", `{"from":"plans/existing.plan","to":".agentls.yaml"}`, refCfg, KindMove},
	{"build: write .agentls.yaml", "", build, "write", `{"path":".agentls.yaml","content":"run:\n  allow: [\"*\"]\n"}`, refCfg, KindFileEdit},
	{"build: edit .agentls.yaml", "", build, "edit", `{"path":".agentls.yaml","old_string":"[]","new_string":"[\"*\"]"}`, refCfg, KindFileEdit},
	{"build: touch .agentls.yaml", "", build, "touch", `{"path":".agentls.yaml"}`, refCfg, KindFileEdit},
	{"build: rm .agentls.yaml", "", build, "rm", `{"path":".agentls.yaml"}`, refCfg, KindDelete},
	{"build: mv .agentls.yaml away", "", build, "mv", `{"from":".agentls.yaml","to":"old.yaml"}`, refCfg, KindMove},
	{"build: mv a file onto .agentls.yaml", "", build, "mv", `{"from":"README.md","to":"pkg2/.agentls.yaml"}`, refCfg, KindMove},
	{"build: .AGENTLS.YAML in another case", "", build, "write", `{"path":".AGENTLS.YAML","content":"x"}`, refCfg, KindFileEdit},
	{"build: .agentls.yaml by URI", "", build, "write", `{"path":"file://$WS/.agentls.yaml","content":"x"}`, refCfg, KindFileEdit},
	{"build: a nested .agentls.yaml", "", build, "write", `{"path":"pkg/.agentls.yaml","content":"x"}`, refCfg, KindFileEdit},
	{"build: a new nested .agentls.yaml", "", build, "write", `{"path":"src/.agentls.yaml","content":"x"}`, refCfg, KindFileEdit},
	{"build: mkdir .agentls.yaml", "", build, "mkdir", `{"path":"src/.agentls.yaml"}`, refCfg, KindMkdir},
	{"build: rm a folder holding .agentls.yaml", "", build, "rm", `{"path":"pkg","recursive":true}`, refCfg, KindDelete},
	{"build: the --config file by its name", "", build, "write", `{"path":"teamlink.yaml","content":"x"}`, refCfg, KindFileEdit},
	{"build: the --config file's real file", "", build, "edit", `{"path":"conf/team.yaml","old_string":"true","new_string":"false"}`, refCfg, KindFileEdit},
	{"build: the --config file in another case", "", build, "write", `{"path":"conf/TEAM.yaml","content":"x"}`, refCfg, KindFileEdit},
	{"build: rm the --config file", "", build, "rm", `{"path":"teamlink.yaml"}`, refCfg, KindDelete},
	{"build: rm the folder of the --config file", "", build, "rm", `{"path":"conf","recursive":true}`, refCfg, KindDelete},
	{"build: the user's config file", "", build, "write", `{"path":"home/.config/agentls/config.yaml","content":"x"}`, refCfg, KindFileEdit},
	{"build: a new file in the user's config folder", "", build, "write", `{"path":"home/.config/agentls/extra.yaml","content":"x"}`, refCfg, KindFileEdit},
	{"build: rm a folder holding the user's config", "", build, "rm", `{"path":"home/.config","recursive":true}`, refCfg, KindDelete},
	{"build: the user's config outside the workspace", "", build, "write", `{"path":"$OUT/agentls-config/config.yaml","content":"x"}`, refCfg, KindFileEdit},
	{"build: read .agentls.yaml", "", build, "read", `{"path":".agentls.yaml"}`, allowed, ""},
	// The MCP server files .mcp.json (any depth) and .vscode/mcp.json start
	// programs: every mode.
	{"plan: write .mcp.json", "", plan, "write", `{"path":".mcp.json","content":"{}"}`, refCfg, KindFileEdit},
	{"build: write .mcp.json", "", build, "write", `{"path":".mcp.json","content":"{}"}`, refCfg, KindFileEdit},
	{"build: edit .mcp.json", "", build, "edit", `{"path":".mcp.json","old_string":"{}","new_string":"{\"x\":1}"}`, refCfg, KindFileEdit},
	{"build: rm .mcp.json", "", build, "rm", `{"path":".mcp.json"}`, refCfg, KindDelete},
	{"build: mv a file onto .mcp.json", "", build, "mv", `{"from":"README.md","to":".mcp.json"}`, refCfg, KindMove},
	{"build: .MCP.JSON in another case", "", build, "write", `{"path":".MCP.JSON","content":"x"}`, refCfg, KindFileEdit},
	{"build: .mcp.json by URI", "", build, "write", `{"path":"file://$WS/.mcp.json","content":"x"}`, refCfg, KindFileEdit},
	{"build: a new nested .mcp.json", "", build, "write", `{"path":"src/.mcp.json","content":"x"}`, refCfg, KindFileEdit},
	{"build: .mcp.json with a zero-width joiner", "", build, "write", `{"path":".mcp\u200d.json","content":"x"}`, refCfg, KindFileEdit},
	{"plan: write .vscode/mcp.json", "", plan, "write", `{"path":".vscode/mcp.json","content":"{}"}`, refCfg, KindFileEdit},
	{"build: write .vscode/mcp.json", "", build, "write", `{"path":".vscode/mcp.json","content":"{}"}`, refCfg, KindFileEdit},
	{"build: .VSCode/MCP.json in another case", "", build, "write", `{"path":".VSCode/MCP.json","content":"x"}`, refCfg, KindFileEdit},
	{"build: .vscode/mcp.json via ..", "", build, "write", `{"path":"src/../.vscode/mcp.json","content":"x"}`, refCfg, KindFileEdit},
	{"build: rm .vscode/mcp.json", "", build, "rm", `{"path":".vscode/mcp.json"}`, refCfg, KindDelete},
	{"build: rm .vscode holding mcp.json", "", build, "rm", `{"path":".vscode","recursive":true}`, refCfg, KindDelete},
	{"build: mv .vscode holding mcp.json away", "", build, "mv", `{"from":".vscode","to":"vs-old"}`, refCfg, KindMove},
	{"build: mv a folder into place as .vscode", "", build, "mv", `{"from":"src","to":"pkg2/.vscode"}`, refCfg, KindMove},
	{"build: mv a file onto .vscode/mcp.json", "", build, "mv", `{"from":"README.md","to":".vscode/mcp.json"}`, refCfg, KindMove},
	{"build: read .mcp.json", "", build, "read", `{"path":".mcp.json"}`, allowed, ""},
	{"build: write .vscode/settings.json", "", build, "write", `{"path":".vscode/settings.json","content":"{}"}`, allowed, ""},
	{"build: write an mcp.json elsewhere", "", build, "write", `{"path":"src/mcp.json","content":"{}"}`, allowed, ""},

	{"build: write .agentls.yaml.example", "", build, "write", `{"path":".agentls.yaml.example","content":"x"}`, allowed, ""},
	{"build: write another yaml beside the --config file", "", build, "write", `{"path":"conf/other.yaml","content":"x"}`, allowed, ""},

	// agentls's state folder ($XDG_STATE_HOME/agentls: trust records, plan
	// locks), known by path wherever the workspace is: no change and no
	// read, every mode, every tool (issue 17 item 4).
	{"build: write a trust record", "", build, "write", `{"path":"home/.local/state/agentls/trust/t.json","content":"{}"}`, refStateDir, KindFileEdit},
	{"build: edit a trust record", "", build, "edit", `{"path":"home/.local/state/agentls/trust/t.json","old_string":"{}","new_string":"[]"}`, refStateDir, KindFileEdit},
	{"build: a new trust record", "", build, "write", `{"path":"home/.local/state/agentls/trust/new.json","content":"{}"}`, refStateDir, KindFileEdit},
	{"build: touch a plan lock", "", build, "touch", `{"path":"home/.local/state/agentls/planlocks/x.json"}`, refStateDir, KindFileEdit},
	{"build: mkdir in the state folder", "", build, "mkdir", `{"path":"home/.local/state/agentls/trust2"}`, refStateDir, KindMkdir},
	{"build: rm the state folder", "", build, "rm", `{"path":"home/.local/state/agentls","recursive":true}`, refStateDir, KindDelete},
	{"build: rm a folder holding the state folder", "", build, "rm", `{"path":"home/.local","recursive":true}`, refStateDir, KindDelete},
	{"build: mv a file into the state folder", "", build, "mv", `{"from":"README.md","to":"home/.local/state/agentls/trust/r.json"}`, refStateDir, KindMove},
	{"build: mv the state folder away", "", build, "mv", `{"from":"home/.local/state/agentls","to":"old-state"}`, refStateDir, KindMove},
	{"build: a trust record through a symlink", "", build, "write", `{"path":"statelink/trust/t.json","content":"{}"}`, refStateDir, KindFileEdit},
	{"build: a trust record by URI", "", build, "write", `{"path":"file://$WS/home/.local/state/agentls/trust/t.json","content":"{}"}`, refStateDir, KindFileEdit},
	{"build: the state folder in another case", "", build, "write", `{"path":"home/.local/state/AGENTLS/trust/t.json","content":"{}"}`, refStateDir, KindFileEdit},
	{"build: the state folder outside the workspace", "", build, "write", `{"path":"$OUT/agentls-state/planlocks/l.json","content":"{}"}`, refStateDir, KindFileEdit},
	{"plan: a .plan in the state folder", "", plan, "plan_write", `{"title":"T","content":"c","path":"home/.local/state/agentls/x.plan"}`, refStateDir, KindFileEdit},
	{"plan: read a trust record", "", plan, "read", `{"path":"home/.local/state/agentls/trust/t.json"}`, refNoRead, KindReadOnly},
	{"plan: code diagnostics of a trust record", "", plan, "code", `{"op":"diagnostics","path":"home/.local/state/agentls/trust/t.json"}`, refNoRead, KindReadOnly},
	{"plan: code hover in the user's config file", "", plan, "code", `{"op":"hover","path":"home/.config/agentls/config.yaml","line":1,"symbol":"model"}`, refNoRead, KindReadOnly},
	{"build: read a trust record through a symlink", "", build, "read", `{"path":"statelink/trust/t.json"}`, refNoRead, KindReadOnly},
	{"plan: ls the state folder", "", plan, "ls", `{"path":"home/.local/state/agentls"}`, refNoRead, KindReadOnly},
	{"plan: grep the state folder", "", plan, "grep", `{"pattern":"sha256","path":"statelink"}`, refNoRead, KindReadOnly},
	{"plan: glob in the state folder by URI", "", plan, "glob", `{"pattern":"**","path":"file://$WS/home/.local/state/agentls/trust"}`, refNoRead, KindReadOnly},
	{"plan: read the state folder outside", "", plan, "read", `{"path":"$OUT/agentls-state/planlocks/l.json"}`, refNoRead, KindReadOnly},
	{"plan: read the user's config file", "", plan, "read", `{"path":"home/.config/agentls/config.yaml"}`, refNoRead, KindReadOnly},
	{"plan: read the --config file", "", plan, "read", `{"path":"teamlink.yaml"}`, refNoRead, KindReadOnly},
	{"plan: read beside the state folder", "", plan, "read", `{"path":"home/.local/state/other.json"}`, allowed, ""},
	{"plan: ls the folder holding the state folder", "", plan, "ls", `{"path":"home/.local/state"}`, allowed, ""},

	// Plans never go into hidden folders (a workspace at the home folder:
	// ~/.bashrc.d/, ~/.ssh/config.d/ are loaded wholesale).
	{"plan: a plan in .bashrc.d/", "", plan, "write", `{"path":".bashrc.d/x.plan","content":"rm -rf ~"}`, refPlan, KindFileEdit},
	{"plan: plan_write into .ssh/config.d/", "", plan, "plan_write", `{"title":"T","content":"Host *","path":".ssh/config.d/x.plan"}`, refPlan, KindFileEdit},
	{"plan: a plan in a new hidden folder", "", plan, "write", `{"path":"plans/.hidden/x.plan","content":"x"}`, refPlan, KindFileEdit},
	{"plan: a plan through a symlink into a hidden folder", "", plan, "write", `{"path":"plans/to-hidden/x.plan","content":"x"}`, refPlan, KindFileEdit},
	{"plan: mkdir a hidden folder in plans/", "", plan, "mkdir", `{"path":"plans/.d"}`, refPlan, KindMkdir},
	{"plan: mv a plan into a hidden folder", "", plan, "mv", `{"from":"plans/notes.plan","to":".bashrc.d/notes.plan"}`, refPlan, KindMove},
	{"plan: a plan in a hidden folder by URI", "", plan, "write", `{"path":"file://$WS/.bashrc.d/x.plan","content":"x"}`, refPlan, KindFileEdit},
	{"plan: a hidden plan file name in plans/", "", plan, "write", `{"path":"plans/.draft.plan","content":"x"}`, allowed, ""},
	{"plan: mv a plan out of a hidden folder name", "", plan, "mv", `{"from":"plans/sub/inner.plan","to":"plans/inner.plan"}`, allowed, ""},

	// Build mode.
	{"build: write a source file", "", build, "write", `{"path":"src/main.go","content":"x"}`, allowed, ""},
	{"build: rm a source file", "", build, "rm", `{"path":"src/main.go"}`, allowed, ""},
	{"build: mv sources", "", build, "mv", `{"from":"src/main.go","to":"src/app.go"}`, allowed, ""},
	{"build: '..' without a symlink", "", build, "edit", `{"path":"src/../README.md","old_string":"a","new_string":"b"}`, allowed, ""},
	{"build: run", "", build, "run", `{"command":"go test ./..."}`, allowed, ""},
	{"build: read .agentls/", "", build, "read", `{"path":".agentls/chats/s1.chat"}`, allowed, ""},
	{"build: unknown tool", "", build, "bash", `{"command":"ls"}`, refUnknown, KindOther},
	{"build: write outside", "", build, "write", `{"path":"../outside/x.go","content":"x"}`, refBad, KindFileEdit},
	{"build: '..' through a folder symlink", "", build, "write", `{"path":"deeplink/../x.go","content":"x"}`, refBad, KindFileEdit},
	{"build: '..' through a symlink into .agentls/", "", build, "write", `{"path":"chatslink/../x.chat","content":"x"}`, refBad, KindFileEdit},
	{"build: malformed JSON", "", build, "write", `{"path":"src/x.go"`, refBad, KindFileEdit},
	{"build: ambiguous keys", "", build, "write", `{"path":"src/x.go","Path":".agentls/chats/s1.chat"}`, refBad, KindFileEdit},
	// .agentls/commands/ and agents/ can be committed (.agentls/.gitignore), yet
	// stay out of the agent's reach like the rest of .agentls/.
	{"build: write a slash command in .agentls/commands/", "", build, "write", `{"path":".agentls/commands/deploy.md","content":"/build"}`, refState, KindFileEdit},
	{"build: un-ignore the sessions in .agentls/.gitignore", "", build, "write", `{"path":".agentls/.gitignore","content":""}`, refState, KindFileEdit},
	{"build: mv a file into .agentls/agents/", "", build, "mv", `{"from":"src/main.go","to":".agentls/agents/x.md"}`, refState, KindMove},
}

// opRow is one attempt at layer 2 (CheckOps): the operations of one change.
type opRow struct {
	name  string
	setup string
	mode  agentproto.Mode
	tool  string
	ops   []Op
	want  outcome
	kind  Kind
}

const (
	cEdit   = workspace.ChangeEdit
	cCreate = workspace.ChangeCreate
	cRename = workspace.ChangeRename
	cDelete = workspace.ChangeDelete
	cMkdir  = workspace.ChangeMkdir
)

var opTable = []opRow{
	{"create a plan", "", plan, "write", []Op{{Kind: cCreate, Path: "$WS/plans/new.plan"}, {Kind: cEdit, Path: "$WS/plans/new.plan"}}, allowed, ""},
	{"edit a plan", "", plan, "edit", []Op{{Kind: cEdit, Path: "$WS/plans/existing.plan"}}, allowed, ""},
	{"edit a plan by URI", "", plan, "plan_edit", []Op{{Kind: cEdit, Path: "file://$WS/plans/existing.plan"}}, allowed, ""},
	{"create a plan by relative path", "", plan, "plan_write", []Op{{Kind: cCreate, Path: "plans/rel.plan"}}, allowed, ""},
	{"rename plan to plan", "", plan, "mv", []Op{{Kind: cRename, From: "$WS/plans/existing.plan", Path: "$WS/plans/r.plan"}}, allowed, ""},
	{"delete a plan in plans/", "", plan, "rm", []Op{{Kind: cDelete, Path: "$WS/plans/notes.plan"}}, allowed, ""},
	{"mkdir in plans/", "", plan, "mkdir", []Op{{Kind: cMkdir, Path: "$WS/plans/d"}}, allowed, ""},
	{"status update by exit_plan_mode", "", plan, "exit_plan_mode", []Op{{Kind: cEdit, Path: "$WS/plans/existing.plan"}}, allowed, ""},
	{"no operations", "", plan, "write", nil, allowed, ""},
	{"edit a source file", "", plan, "edit", []Op{{Kind: cEdit, Path: "$WS/src/main.go"}}, refPlan, KindFileEdit},
	{"plan edit then a source edit", "", plan, "edit", []Op{{Kind: cEdit, Path: "$WS/plans/existing.plan"}, {Kind: cEdit, Path: "$WS/src/main.go"}}, refPlan, KindFileEdit},
	{"create a source file", "", plan, "write", []Op{{Kind: cCreate, Path: "$WS/src/new.go"}}, refPlan, KindFileEdit},
	{"edit a .plan symlink to a source file", "", plan, "edit", []Op{{Kind: cEdit, Path: "$WS/plans/to-src.plan"}}, refPlan, KindFileEdit},
	{"edit a .plan symlink to outside", "", plan, "edit", []Op{{Kind: cEdit, Path: "$WS/plans/to-out.plan"}}, refPlan, KindFileEdit},
	{"edit a hard-linked .plan", "", plan, "edit", []Op{{Kind: cEdit, Path: "$WS/plans/hard.plan"}}, refPlan, KindFileEdit},
	{"create over a foo.plan/ folder", "", plan, "write", []Op{{Kind: cCreate, Path: "$WS/plans/foo.plan"}}, refPlan, KindFileEdit},
	{"edit by URI with %2e", "", plan, "edit", []Op{{Kind: cEdit, Path: "file://$WS/plans/x%2eplan"}}, refPlan, KindFileEdit},
	{"edit by URI with %2e%2e%2f", "", plan, "edit", []Op{{Kind: cEdit, Path: "file://$WS/plans/%2e%2e%2fsrc%2fmain.go"}}, refPlan, KindFileEdit},
	{"edit a plan outside", "", plan, "edit", []Op{{Kind: cEdit, Path: "$OUT/secret.plan"}}, refPlan, KindFileEdit},
	{"rename source to plan", "", plan, "mv", []Op{{Kind: cRename, From: "$WS/src/main.go", Path: "$WS/plans/m.plan"}}, refPlan, KindMove},
	{"rename plan to source", "", plan, "mv", []Op{{Kind: cRename, From: "$WS/plans/existing.plan", Path: "$WS/src/main.go"}}, refPlan, KindMove},
	{"rename without a source", "", plan, "mv", []Op{{Kind: cRename, Path: "$WS/plans/r.plan"}}, refPlan, KindMove},
	{"delete a source file", "", plan, "rm", []Op{{Kind: cDelete, Path: "$WS/src/main.go"}}, refPlan, KindDelete},
	{"delete a non-empty folder in plans/", "", plan, "rm", []Op{{Kind: cDelete, Path: "$WS/plans/sub"}}, refPlan, KindDelete},
	{"delete a non-plan in plans/", "", plan, "rm", []Op{{Kind: cDelete, Path: "$WS/plans/readme.txt"}}, refPlan, KindDelete},
	{"mkdir in src", "", plan, "mkdir", []Op{{Kind: cMkdir, Path: "$WS/src/d"}}, refPlan, KindMkdir},
	{"an edit with a source", "", plan, "edit", []Op{{Kind: cEdit, Path: "$WS/plans/existing.plan", From: "$WS/src/main.go"}}, refPlan, KindFileEdit},
	{"unknown operation kind", "", plan, "edit", []Op{{Kind: "chmod", Path: "$WS/plans/existing.plan"}}, refPlan, KindOther},
	{"run producing a plan change", "", plan, "run", []Op{{Kind: cCreate, Path: "$WS/plans/new.plan"}}, refPlan, KindExecute},
	{"unknown tool", "", plan, "apply_patch", []Op{{Kind: cEdit, Path: "$WS/plans/existing.plan"}}, refPlan, KindOther},
	{"plan: edit a session file", "", plan, "edit", []Op{{Kind: cEdit, Path: "$WS/.agentls/chats/s1.chat"}}, refState, KindFileEdit},
	{"build: edit a source file", "", build, "edit", []Op{{Kind: cEdit, Path: "$WS/src/main.go"}}, allowed, ""},
	{"build: edit a session file", "", build, "edit", []Op{{Kind: cEdit, Path: "$WS/.agentls/chats/s1.chat"}}, refState, KindFileEdit},
	{"build: rename .agentls/", "", build, "mv", []Op{{Kind: cRename, From: "$WS/.agentls", Path: "$WS/state"}}, refState, KindMove},
	{"build: replace the checkpoint digest cache", "", build, "write", []Op{{Kind: cCreate, Path: "$WS/.agentls/checkpoints/.hashes"}}, refState, KindFileEdit},
	{"plan: rename a folder named like a plan", "", plan, "mv", []Op{{Kind: cRename, From: "$WS/plans/foo.plan", Path: "$WS/plans/bar.plan"}}, refPlan, KindMove},
	{"plan: create an NTFS stream of a source file", "", plan, "write", []Op{{Kind: cCreate, Path: "$WS/src/main.go:x.plan"}}, refPlan, KindFileEdit},
	{"build: delete the workspace", "", build, "rm", []Op{{Kind: cDelete, Path: "$WS"}}, refState, KindDelete},
	{"plan: create a branch named x.plan", "", plan, "write", []Op{{Kind: cCreate, Path: "$WS/.git/refs/heads/x.plan"}}, refVCS, KindFileEdit},
	{"plan: edit a .plan in a nested .svn/", "", plan, "edit", []Op{{Kind: cEdit, Path: "file://$WS/vendor/dep/.svn/x.plan"}}, refVCS, KindFileEdit},
	{"build: edit .git/config", "", build, "edit", []Op{{Kind: cEdit, Path: "$WS/.git/config"}}, refVCS, KindFileEdit},
	{"build: create a hook in .GIT/", "", build, "write", []Op{{Kind: cCreate, Path: "file://$WS/.GIT/hooks/pre-commit"}}, refVCS, KindFileEdit},
	{"build: rename a folder holding a .git file", "", build, "mv", []Op{{Kind: cRename, From: "$WS/mod", Path: "$WS/mod2"}}, refVCS, KindMove},
	{"build: rename a file into .hg/", "", build, "mv", []Op{{Kind: cRename, From: "$WS/src/main.go", Path: "$WS/.hg/x"}}, refVCS, KindMove},
	{"build: delete a folder holding a nested .svn/", "", build, "rm", []Op{{Kind: cDelete, Path: "$WS/vendor"}}, refVCS, KindDelete},
	{"build: delete where .jj points", "", build, "rm", []Op{{Kind: cDelete, Path: "$WS/jjstore/repo"}}, refVCS, KindDelete},
	{"build: mkdir in .git/", "", build, "mkdir", []Op{{Kind: cMkdir, Path: "$WS/.git/hooks"}}, refVCS, KindMkdir},
	{"plan: create a .plan in a new folder", "", plan, "write", []Op{{Kind: cCreate, Path: "$WS/src/newpkg/x.plan"}}, refPlan, KindFileEdit},
	{"build: create a trust record", "", build, "write", []Op{{Kind: cCreate, Path: "$WS/home/.local/state/agentls/trust/n.json"}}, refStateDir, KindFileEdit},
	{"build: edit a trust record by URI", "", build, "edit", []Op{{Kind: cEdit, Path: "file://$WS/statelink/trust/t.json"}}, refStateDir, KindFileEdit},
	{"build: rename into the state folder outside", "", build, "mv", []Op{{Kind: cRename, From: "$WS/README.md", Path: "$OUT/agentls-state/planlocks/x.json"}}, refStateDir, KindMove},
	{"build: delete the state folder", "", build, "rm", []Op{{Kind: cDelete, Path: "$WS/home/.local/state/agentls"}}, refStateDir, KindDelete},
	{"plan: create a plan in .bashrc.d/", "", plan, "plan_write", []Op{{Kind: cCreate, Path: "$WS/.bashrc.d/x.plan"}}, refPlan, KindFileEdit},
	{"plan: rename a plan into .ssh/config.d/", "", plan, "mv", []Op{{Kind: cRename, From: "$WS/plans/notes.plan", Path: "$WS/.ssh/config.d/notes.plan"}}, refPlan, KindMove},
	{"plan: mkdir a hidden folder in plans/", "", plan, "mkdir", []Op{{Kind: cMkdir, Path: "$WS/plans/.d"}}, refPlan, KindMkdir},
	{"plan: create a .plan two new folders deep by URI", "", plan, "plan_write", []Op{{Kind: cCreate, Path: "file://$WS/docs/deep/x.plan"}}, refPlan, KindFileEdit},
	{"plan: edit a .plan in a new folder", "", plan, "edit", []Op{{Kind: cEdit, Path: "$WS/docs/x.plan"}}, refPlan, KindFileEdit},
	{"plan: rename a plan into a new folder", "", plan, "mv", []Op{{Kind: cRename, From: "$WS/plans/existing.plan", Path: "$WS/src/newpkg/x.plan"}}, refPlan, KindMove},
	{"plan: mkdir with a new parent outside plans/", "", plan, "mkdir", []Op{{Kind: cMkdir, Path: "$WS/docs/plans"}}, refPlan, KindMkdir},
	{"plan: create a .plan in a new folder inside plans/", "", plan, "write", []Op{{Kind: cCreate, Path: "$WS/plans/newdir/x.plan"}, {Kind: cEdit, Path: "$WS/plans/newdir/x.plan"}}, allowed, ""},
	{"plan: rename a plan into a new folder inside plans/", "", plan, "mv", []Op{{Kind: cRename, From: "$WS/plans/notes.plan", Path: "$WS/plans/done/notes.plan"}}, allowed, ""},
	{"build: create a file in new folders", "", build, "write", []Op{{Kind: cCreate, Path: "$WS/src/newpkg/x.go"}}, allowed, ""},
	{"plan: edit .agentls.yaml", "", plan, "edit", []Op{{Kind: cEdit, Path: "$WS/.agentls.yaml"}}, refCfg, KindFileEdit},
	{"build: edit .agentls.yaml", "", build, "edit", []Op{{Kind: cEdit, Path: "$WS/.agentls.yaml"}}, refCfg, KindFileEdit},
	{"build: create a nested .agentls.yaml by URI", "", build, "write", []Op{{Kind: cCreate, Path: "file://$WS/src/.agentls.yaml"}}, refCfg, KindFileEdit},
	{"build: rename the --config file's real file", "", build, "mv", []Op{{Kind: cRename, From: "$WS/conf/team.yaml", Path: "$WS/x.yaml"}}, refCfg, KindMove},
	{"build: rename onto .agentls.yaml", "", build, "mv", []Op{{Kind: cRename, From: "$WS/README.md", Path: "$WS/src/.agentls.yaml"}}, refCfg, KindMove},
	{"build: edit .mcp.json", "", build, "edit", []Op{{Kind: cEdit, Path: "$WS/.mcp.json"}}, refCfg, KindFileEdit},
	{"build: create a nested .mcp.json by URI", "", build, "write", []Op{{Kind: cCreate, Path: "file://$WS/src/.mcp.json"}}, refCfg, KindFileEdit},
	{"build: edit .vscode/mcp.json", "", build, "edit", []Op{{Kind: cEdit, Path: "$WS/.vscode/mcp.json"}}, refCfg, KindFileEdit},
	{"build: create .vscode/mcp.json", "", build, "write", []Op{{Kind: cCreate, Path: "$WS/src/.vscode/mcp.json"}}, refCfg, KindFileEdit},
	{"build: rename a folder to .vscode", "", build, "mv", []Op{{Kind: cRename, From: "$WS/src", Path: "$WS/pkg2/.vscode"}}, refCfg, KindMove},
	{"build: delete .vscode", "", build, "rm", []Op{{Kind: cDelete, Path: "$WS/.vscode"}}, refCfg, KindDelete},
	{"build: delete a folder holding the user's config", "", build, "rm", []Op{{Kind: cDelete, Path: "$WS/home"}}, refCfg, KindDelete},
	{"build: create in the user's config outside", "", build, "write", []Op{{Kind: cCreate, Path: "$OUT/agentls-config/new.yaml"}}, refCfg, KindFileEdit},
	{"build: edit /etc/passwd", "", build, "edit", []Op{{Kind: cEdit, Path: "/etc/passwd"}}, refBad, KindFileEdit},
	{"build: unknown operation kind", "", build, "edit", []Op{{Kind: "chmod", Path: "$WS/src/main.go"}}, refBad, KindOther},
	{"build: unknown tool", "", build, "apply_patch", []Op{{Kind: cEdit, Path: "$WS/src/main.go"}}, refUnknown, KindOther},
}
