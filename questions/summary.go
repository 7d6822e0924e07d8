package questions

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Summary is the conversation line for a set of answers (seed §6.6): one
// answer gives "[Answered: staging]", several give
// "[Answers: environment=staging, region=us-east-1]" in question order.
// Answers to names not among qs are left out.
func Summary(qs []Question, answers map[string]any) string {
	var names, values []string
	for _, q := range qs {
		if v, ok := answers[q.Name]; ok {
			names = append(names, q.Name)
			values = append(values, FormatValue(v))
		}
	}
	switch len(values) {
	case 0:
		return "[No answers]"
	case 1:
		return "[Answered: " + values[0] + "]"
	}
	parts := make([]string, len(values))
	for i := range values {
		parts[i] = names[i] + "=" + values[i]
	}
	return "[Answers: " + strings.Join(parts, ", ") + "]"
}

// FormatValue renders an answer plainly: strings bare, booleans and numbers
// as written, null as null, arrays as "[a, b]", objects as compact JSON.
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		return x.String()
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []any:
		items := make([]string, len(x))
		for i, item := range x {
			items[i] = FormatValue(item)
		}
		return "[" + strings.Join(items, ", ") + "]"
	}
	c, err := canonical(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if _, ok := c.(map[string]any); !ok {
		return FormatValue(c)
	}
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
