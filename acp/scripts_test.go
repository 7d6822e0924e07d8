package acp_test

import "encoding/json"

// Scripted models (agent/scripted's YAML) that several tests share.

// runScript is a scripted model that runs command (call r1) and, once
// r1's result holds each of want, says text.
func runScript(command, text string, want ...string) string {
	return `
steps:
  - tool_calls: [{id: r1, name: run, args: {command: ` + yamlValue(command) + `}}]
  - expect: {tool_result_contains: {r1: ` + yamlValue(want) + `}}
    text: ` + yamlValue(text) + `
`
}

// askEnvAndConfirm is a script's step: the model asks (call q1) which
// environment (dev or staging) and whether really (a yes or no).
const askEnvAndConfirm = `  - tool_calls:
      - id: q1
        name: ask_user
        args:
          questions:
            - {name: env, question: "Which environment?", schema: {type: string, enum: [dev, staging]}}
            - {name: confirm, question: "Really?", schema: {type: boolean}}
`

// yamlValue is v as YAML flow text (JSON, which YAML reads as the same
// value).
func yamlValue(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // strings and lists of strings always marshal
	}
	return string(b)
}
