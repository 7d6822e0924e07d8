package slash

import "testing"

// TestOneArgumentPromptTakesTextWithAnApostrophe: docs/commands.md
// says "a prompt of one argument also takes the whole text". A sentence
// with an apostrophe (`/mcp:notes:summarise what's new in the release`) is
// such a text, yet the quote parser refuses it ("a quote (') is not
// closed") before the one-argument rule is applied.
func TestOneArgumentPromptTakesTextWithAnApostrophe(t *testing.T) {
	one := []Param{{Name: "text", Required: true}}
	for _, text := range []string{
		`what's new in the release`,
		`summarise the README's install section`,
	} {
		got, err := NamedArgs(one, text)
		if err != nil || got["text"] != text {
			t.Errorf("NamedArgs(one argument, %q) = %v, %v; want the whole text as its value", text, got, err)
		}
	}
}
