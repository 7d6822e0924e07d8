package questions

import (
	"strconv"
	"unicode/utf8"
)

// checkSchemaText refuses a schema holding text a person would not see as
// written: faces show its enum values and consts (as choices), titles,
// descriptions, property names and defaults, and those cannot be escaped
// where they are shown (an enum value is also the answer the model gets),
// so a string or key with a control, bidi or zero-width character
// (Escape: "keep \u202Estnemucod" reads "keep documents") is refused with
// where it is. A `pattern` is exempt: it is matched, not shown.
func checkSchemaText(p *problems, at string, schema any) {
	var walk func(v any, ptr string)
	walk = func(v any, ptr string) {
		switch x := v.(type) {
		case string:
			if !clean(x, true) {
				p.add(at+jsonPath(schema, ptr), "holds %s, a character a person would not see as written (a control, bidi or zero-width character): write the question's choices, titles and descriptions without it", hiddenIn(x))
			}
		case []any:
			for i, e := range x {
				walk(e, ptr+"/"+strconv.Itoa(i))
			}
		case map[string]any:
			for k, e := range x {
				if !clean(k, true) {
					p.add(at+jsonPath(schema, ptr), "has the key %q, which holds %s, a character a person would not see as written: name it without it", Escape(k), hiddenIn(k))
					continue
				}
				if k == "pattern" {
					continue
				}
				if k == "patternProperties" {
					if m, ok := e.(map[string]any); ok {
						for pk, sub := range m {
							walk(sub, ptr+"/"+escapeToken(k)+"/"+escapeToken(pk))
						}
						continue
					}
				}
				walk(e, ptr+"/"+escapeToken(k))
			}
		}
	}
	walk(schema, "")
}

// hiddenIn names the first character of s that Escape would show escaped
// (`\u202E`, `\xFF`).
func hiddenIn(s string) string {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || !Shown(r, true) {
			return Escape(s[i : i+size])
		}
		i += size
	}
	return ""
}
