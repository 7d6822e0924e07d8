// Package guard is the plan-mode policy of agentls: the classification of
// every tool, the decision for each tool call (layer 1, before the tool runs,
// from its raw JSON arguments) and for each change that leaves the server
// (layer 2, the last check on every WorkspaceEdit or disk write), and the
// structured refusal the model and the editor see.
//
// The promise it keeps: in plan mode nothing but `.plan` documents can change.
// In every mode, no tool can change the protected folders and files
// (protectedNames: agentls's own state folder `.agentls/`, its configuration
// `.agentls.yaml`, and the version-control folders `.git`, `.hg`, `.svn`,
// `.jj`, at any depth, in any letter case; the configuration known by
// path, Guard.WithConfig; agentls's state folder, Guard.WithState; the last
// two are not even readable). Under Guard.WithPlanOnly (a workspace at the
// home folder) every session counts as in plan mode, and plan mode never
// writes into hidden folders. In plan mode a change that would create missing
// parent folders is judged as the mkdir of each. The guard fails closed: an unknown tool, an unknown mode, arguments it
// cannot read and paths the workspace cannot resolve are refused.
//
// Tools must take their targets only from the argument keys the guard reads:
// `path` (write, edit, touch, rm, mkdir, plan_write, plan_edit) and `from`/`to`
// (mv). Keys are matched the way lenient JSON decoders match them (case
// folded, `-` and `_` ignored); two keys that match the same name are refused
// as ambiguous.
package guard
