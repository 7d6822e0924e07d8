package agent

import (
	"encoding/json"
	"strconv"

	"github.com/agentls/agentls/internal/jsonw"
)

// recordJSON is r as the session file stores it: byte for byte what
// json.Marshal makes of a chatRecord (its fields and rewindFields' in
// order, empty ones left out, strings HTML-escaped, the time as
// time.Time's MarshalJSON writes it), written directly, as
// chatMessageJSON is for messages: every turn records a checkpoint, and
// through encoding/json a process's first record built the record's
// encoder (about 80 us of its first turn). A time that does not encode
// (a year outside 0–9999) goes to json.Marshal, for its error.
func recordJSON(r chatRecord) ([]byte, error) {
	at, err := r.At.MarshalJSON()
	if err != nil {
		return json.Marshal(r)
	}
	b := make([]byte, 0, 160+len(r.Summary)+len(r.Reason)+len(r.Note))
	b = jsonw.AppendMember(b, `{"record":`, r.Record)
	b = append(b, `,"at":`...)
	b = append(b, at...)
	b = appendStrings(b, `,"synthetic":`, r.Synthetic)
	b = appendStrings(b, `,"dropped":`, r.Dropped)
	b = appendInt(b, `,"stub_before":`, r.StubBefore)
	b = appendInt(b, `,"summary_upto":`, r.SummaryUpto)
	b = jsonw.AppendField(b, `,"summary":`, r.Summary)
	b = appendInt(b, `,"tokens_before":`, r.TokensBefore)
	b = appendInt(b, `,"from":`, r.From)
	b = appendInt(b, `,"to":`, r.To)
	b = jsonw.AppendField(b, `,"reason":`, r.Reason)
	b = jsonw.AppendField(b, `,"tool_call_id":`, r.ToolCallID)
	b = jsonw.AppendField(b, `,"child":`, r.Child)
	b = jsonw.AppendField(b, `,"message":`, r.Message)
	b = jsonw.AppendField(b, `,"id":`, r.ID)
	b = jsonw.AppendField(b, `,"what":`, r.What)
	b = jsonw.AppendField(b, `,"mode":`, string(r.Mode))
	b = jsonw.AppendField(b, `,"plan_file":`, r.PlanFile)
	b = jsonw.AppendField(b, `,"plan_status":`, r.PlanStatus)
	b = jsonw.AppendField(b, `,"note":`, r.Note)
	return append(b, '}'), nil
}

// appendInt appends key and n unless n is 0 (omitempty).
func appendInt(b []byte, key string, n int) []byte {
	if n == 0 {
		return b
	}
	b = append(b, key...)
	return strconv.AppendInt(b, int64(n), 10)
}

// appendStrings appends key and ss unless ss is empty (omitempty).
func appendStrings(b []byte, key string, ss []string) []byte {
	return jsonw.AppendArrayField(b, key, ss, jsonw.AppendString)
}
