// Package agentls holds the assets that ship inside the agentls binary: the
// sample project and the scripted transcript of `agentls demo`.
package agentls

import "embed"

// DemoFS holds testdata/demo (the sample project) and
// testdata/scripts/demo.yaml (the demo's scripted model).
//
//go:embed testdata/demo testdata/scripts/demo.yaml
var DemoFS embed.FS
