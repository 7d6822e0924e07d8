// Package host is the transport-neutral part of agentls that both faces
// share: the LSP face (package server) and the Agent Client Protocol face
// (package acp) each build a Host for a workspace and speak their own
// protocol on top of it.
//
// A Host owns, for one workspace:
//
//   - the workspace folders and root (folders.go),
//   - the configuration layers, initializationOptions > .agentls.yaml >
//     $XDG_CONFIG_HOME/agentls/config.yaml > environment > defaults, with
//     the trust rules for the workspace's own file (config.go, trust.go),
//   - the model provider built from that configuration (provider.go: the
//     provider factory lives here, so the agent's core loop never imports
//     its providers),
//   - the agent's session manager (host.go).
//
// Beside the Host it offers what every face needs to talk to its client:
// the disk applier that writes changes after the guard's last check
// (disk.go) and the mapping of agent errors to transport-neutral kinds with
// a message a person can act on (errors.go). host never imports a face.
package host
