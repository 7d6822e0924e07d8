package tools

import (
	"embed"
	"fmt"
)

// descriptions holds every tool's model-facing description, one markdown
// file a tool, named after it: descriptions/<name>.md.
//
//go:embed descriptions/*.md
var descriptions embed.FS

// description is the embedded descriptions/<name>.md. It panics when the
// file is missing: the set of tools is fixed at compile time, and a test
// builds every tool.
func description(name string) string {
	b, err := descriptions.ReadFile("descriptions/" + name + ".md")
	if err != nil {
		panic(fmt.Sprintf("tools: %s has no description: %v", name, err))
	}
	return string(b)
}
