// Package checkpoint is agentls's checkpoint store: snapshots of the
// workspace's files taken before each turn (and at each plan step tick), so
// that a session can be rewound. It lives beside the sessions under
// `.agentls/checkpoints/` and never in the user's `.git`:
//
//   - objects/<sha256>: the content of each kept file, once (deduplicated);
//   - <sessionId>/<messageId>.json: a manifest, {path: {sha256, size, mode}};
//   - <sessionId>/known.json: what agentls last made of each file (its own
//     last write, a command's change), for telling a user's change from
//     its own;
//   - <sessionId>/rewind.journal: a rewind under way.
//
// Files come from the workspace's own walker (`.gitignore` rules, `.git`
// and `.agentls` skipped); git is never run. Text files up to MaxFileBytes
// are kept; others are listed as not restorable. Every write is atomic
// (temporary file and rename). See docs/rewind.md.
package checkpoint
