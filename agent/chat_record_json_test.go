package agent

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/agentls/agentls/agentproto"
)

// TestRecordJSON: recordJSON writes what json.Marshal writes for every
// record kind and field, and fails where it fails (a time that does not
// encode).
func TestRecordJSON(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 26, 19, 37, 40, 123456000, time.FixedZone("X", 3600))
	tricky := "a <b> & \"c\"\n\t\u2028 \xff ✓"
	cases := []chatRecord{
		{},
		{Record: recordCheckpoint, At: at, rewindFields: rewindFields{Message: "m1", Mode: agentproto.ModeBuild, PlanFile: "plans/a.md", PlanStatus: "approved"}},
		{Record: recordCheckpoint, At: at.UTC().Truncate(time.Second), rewindFields: rewindFields{Message: "m1", Mode: agentproto.ModePlan}},
		{Record: recordRewind, At: at, From: 3, To: 9, rewindFields: rewindFields{Message: "m1", ID: "u1", What: "both"}},
		{Record: recordRewind, At: at, rewindFields: rewindFields{Message: "m1", ID: "u2", What: "code", Note: tricky}},
		{Record: "repair", At: at, Synthetic: []string{"call_1", tricky}, Dropped: []string{"call_9"}},
		{Record: "repair", At: at, Synthetic: []string{}, Dropped: []string{""}},
		{Record: "compaction", At: at, StubBefore: 4, SummaryUpto: 12, Summary: tricky, TokensBefore: 98765},
		{Record: "set_aside", At: at, From: -1, To: 2, Reason: tricky},
		{Record: "subagent", At: at, ToolCallID: "task_1", Child: "01a2195d-163a-7b22-aade-4ebaba69ea78"},
		{Record: tricky, At: time.Unix(0, 1)},
	}
	for i, r := range cases {
		want, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := recordJSON(r)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("case %d (%s): recordJSON (err %v):\n%s\njson.Marshal:\n%s", i, r.Record, err, got, want)
		}
	}
	if _, err := recordJSON(chatRecord{Record: "checkpoint", At: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}); err == nil {
		t.Error("a record in the year 10000 encoded without an error (json.Marshal refuses it)")
	}
}

// TestRecordJSONKnowsEveryField fails when chatRecord or rewindFields gain
// a field: recordJSON must write it too.
func TestRecordJSONKnowsEveryField(t *testing.T) {
	t.Parallel()
	writesEveryField(t, "recordJSON", map[reflect.Type]int{reflect.TypeFor[chatRecord](): 14, reflect.TypeFor[rewindFields](): 7})
}

// FuzzRecordJSON: for any text and numbers in any field, recordJSON and
// json.Marshal agree.
func FuzzRecordJSON(f *testing.F) {
	f.Add("checkpoint", "m1", "build", int64(1795721860), 3, "")
	f.Add("\xff<&>", "\u2028", "", int64(-62135596800), 0, "x")
	f.Fuzz(func(t *testing.T, kind, text, mode string, sec int64, n int, item string) {
		r := chatRecord{Record: kind, At: time.Unix(sec%(1<<40), int64(n)), Synthetic: []string{item, text}, StubBefore: n, SummaryUpto: -n,
			Summary: text, TokensBefore: n * 7, From: n, To: n + 1, Reason: item, ToolCallID: text, Child: item,
			rewindFields: rewindFields{Message: text, ID: item, What: kind, Mode: agentproto.Mode(mode), PlanFile: text, PlanStatus: mode, Note: item}}
		if n%3 == 0 {
			r.Synthetic, r.Dropped = nil, []string{text}
		}
		got, err := recordJSON(r)
		sameAsMarshal(t, "recordJSON", r, got, err)
	})
}
