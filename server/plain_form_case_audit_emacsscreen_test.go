package server

import (
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
