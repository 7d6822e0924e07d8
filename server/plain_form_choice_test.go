package server

import (
	"encoding/json"
	"testing"

	"github.com/agentls/agentls/questions"
)

// TestPlainFormAnswerTypedExactlyPicksThatChoice: a choice question whose
// message was dismissed waits for the next prompt (plain_form.go
// askByPrompt). Its choices are "Prod" and "prod" (an enum may hold both);
// the person types "prod", exactly the second choice. The agent must get
// "prod", not "Prod": a title matched in any case must not win over the
// one typed exactly.
func TestPlainFormAnswerTypedExactlyPicksThatChoice(t *testing.T) {
	q := questions.Question{
		Name: "env", Question: "Which environment?",
		Schema: []byte(`{"type":"string","enum":["Prod","prod"]}`),
	}
	if got := formValue(q, "prod"); got != "prod" {
		t.Fatalf(`the answer typed "prod" to choices ["Prod","prod"] became %#v: the agent gets the other choice`, got)
	}
}

// TestPlainFormListAnswerTakesCommaSeparatedChoices: a list of choices
// answered by prompt as a person writes it ("go, rust", any case) is the
// list of those choices; JSON is taken as before.
func TestPlainFormListAnswerTakesCommaSeparatedChoices(t *testing.T) {
	q := questions.Question{
		Name: "langs", Question: "Which languages?",
		Schema: []byte(`{"type":"array","items":{"type":"string","enum":["go","rust","c"]},"minItems":1}`),
	}
	for _, text := range []string{"go, rust", "Go,RUST", `["go","rust"]`, " go ,rust, "} {
		got, _ := json.Marshal(formValue(q, text))
		if string(got) != `["go","rust"]` {
			t.Errorf("the answer %q became %s, want [\"go\",\"rust\"]", text, got)
		}
	}
}
