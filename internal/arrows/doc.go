// Package arrows holds the test that keeps the house's import arrows
// (DESIGN.md, "The house") pointing one way: cmd → {server, acp} → host →
// agent → {workspace, guard, questions}.
package arrows
