// Package scripted is an llm.Provider that replays a YAML transcript instead
// of calling a model: each step answers one request with text, reasoning
// and/or tool calls, can first check that the request contains what it
// should, or can fail like a model error. `agentls demo` and the tests use it
// to run without a network.
package scripted

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Script is a transcript: the answers to successive model requests.
type Script struct {
	// Name identifies the script in errors; Load defaults it to the file name.
	Name  string `yaml:"name"`
	Steps []Step `yaml:"steps"`
	// Children are the sections sub-agents replay, by their key (kind and
	// index: "explore-1", "explore-2", below another sub-agent
	// "build-1/explore-1"): a request whose Agent names a section takes its
	// next step, so parallel sub-agents replay deterministically.
	Children map[string][]Step `yaml:"children"`
}

// Step answers one request.
type Step struct {
	// Text is the assistant text, streamed as a few EventText chunks split on
	// word boundaries.
	Text string `yaml:"text"`
	// Thought is streamed as EventThought chunks before the text.
	Thought string `yaml:"thought"`
	// ToolCalls are the calls the answer asks for.
	ToolCalls []Call `yaml:"tool_calls"`
	// Expect is checked against the request of this step before answering.
	Expect *Expect `yaml:"expect"`
	// Error makes the step fail with this error text instead of answering,
	// to test how model errors are handled. It excludes the other answer
	// fields.
	Error string `yaml:"error"`
	// FinishReason is the answer's finish_reason when set ("length": an
	// answer cut off at the output token limit; "content_filter"); else
	// "tool_calls" with tool calls, "stop" without. Not with error.
	FinishReason string `yaml:"finish_reason"`
	// Optional passes the step over when its Expect does not match the
	// request: the next step answers instead. It is for the last request
	// of a turn that a client may cancel before it is sent (agent-shell
	// interrupts the turn after any rejection), so that the script goes on
	// either way. An optional step needs an expect.
	Optional bool `yaml:"optional"`
}

// Call is a tool call of a Step.
type Call struct {
	// ID defaults to "call_<step>_<i>" (both 1-based).
	ID   string `yaml:"id"`
	Name string `yaml:"name"`
	// Args is marshalled to JSON as the call's arguments; with neither Args
	// nor RawArgs the arguments are "{}".
	Args any `yaml:"args"`
	// RawArgs is sent as-is (for broken-JSON tests); it excludes Args.
	RawArgs string `yaml:"raw_args"`
}

// Expect lists what the request of a step must contain.
type Expect struct {
	// SystemContains must each occur in the system prompt.
	SystemContains []string `yaml:"system_contains"`
	// SystemNotContains must not occur in the system prompt.
	SystemNotContains []string `yaml:"system_not_contains"`
	// LastMessageContains must each occur in the Content of the request's last
	// message.
	LastMessageContains []string `yaml:"last_message_contains"`
	// ToolResultContains maps a tool call ID to substrings that the tool
	// message answering that call must contain.
	ToolResultContains map[string][]string `yaml:"tool_result_contains"`
}

// Load reads and parses a script file. A script without a name is named
// after the file (without extension).
func Load(path string) (*Script, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load script: %w", err)
	}
	s, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("load script %s: %w", path, err)
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	return s, nil
}

// Parse decodes and validates a script: unknown keys are rejected, there must
// be at least one step, every step must answer something, every call needs a
// name, and args and raw_args are exclusive. Errors carry line numbers.
func Parse(data []byte) (*Script, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("parse script: %w", err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var s Script
	if err := dec.Decode(&s); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("parse script: the document is empty")
		}
		return nil, fmt.Errorf("parse script: %w", err)
	}
	if err := s.validate(nodeLines{&root}); err != nil {
		return nil, fmt.Errorf("parse script: %w", err)
	}
	return &s, nil
}

// Validate checks a script built in code the way Parse checks a file.
func (s *Script) Validate() error {
	return s.validate(nodeLines{})
}

func (s *Script) validate(lines nodeLines) error {
	if len(s.Steps) == 0 {
		return errors.New("the script has no steps")
	}
	if err := validateSteps(s.Steps, "", lines.step, lines.call); err != nil {
		return err
	}
	for key, steps := range s.Children {
		if len(steps) == 0 {
			return fmt.Errorf("children section %q has no steps", key)
		}
		none := func(int) string { return "" }
		if err := validateSteps(steps, "children "+key+": ", none, func(int, int) string { return "" }); err != nil {
			return err
		}
	}
	return nil
}

// validateSteps checks one list of steps; where prefixes the errors, and
// stepLine and callLine say where a step and a call are in the file.
func validateSteps(steps []Step, where string, stepLine func(int) string, callLine func(int, int) string) error {
	for i, st := range steps {
		at := where + stepLine(i)
		answers := st.Text != "" || st.Thought != "" || len(st.ToolCalls) > 0
		switch {
		case st.Error != "" && (answers || st.FinishReason != ""):
			return fmt.Errorf("%sstep %d: error excludes text, thought, tool_calls and finish_reason", at, i+1)
		case st.Error == "" && !answers:
			return fmt.Errorf("%sstep %d is empty: give text, thought, tool_calls or error", at, i+1)
		case st.Optional && st.Expect == nil:
			return fmt.Errorf("%sstep %d: optional needs an expect (what tells the step's request from the next one's)", at, i+1)
		case st.Optional && i == len(steps)-1:
			return fmt.Errorf("%sstep %d: optional needs a step after it", at, i+1)
		}
		ids := map[string]bool{}
		for j, c := range st.ToolCalls {
			at := where + callLine(i, j)
			if c.Name == "" {
				return fmt.Errorf("%sstep %d: tool call %d has no name", at, i+1, j+1)
			}
			if c.Args != nil && c.RawArgs != "" {
				return fmt.Errorf("%sstep %d: tool call %d (%s): args and raw_args are exclusive", at, i+1, j+1, c.Name)
			}
			if _, err := c.arguments(); err != nil {
				return fmt.Errorf("%sstep %d: tool call %d (%s): %w", at, i+1, j+1, c.Name, err)
			}
			id := c.id(i, j)
			if ids[id] {
				return fmt.Errorf("%sstep %d: tool call %d: duplicate id %q", at, i+1, j+1, id)
			}
			ids[id] = true
		}
	}
	return nil
}

// id returns the call's ID or its default for step i, call j (0-based).
func (c Call) id(i, j int) string {
	if c.ID != "" {
		return c.ID
	}
	return fmt.Sprintf("call_%d_%d", i+1, j+1)
}

// arguments returns the call's arguments as sent to the turn loop.
func (c Call) arguments() (string, error) {
	switch {
	case c.RawArgs != "":
		return c.RawArgs, nil
	case c.Args == nil:
		return "{}", nil
	}
	b, err := json.Marshal(c.Args)
	if err != nil {
		return "", fmt.Errorf("args cannot be written as JSON: %w", err)
	}
	return string(b), nil
}

// nodeLines finds the lines of steps and calls in a parsed document; without
// a document it reports nothing.
type nodeLines struct{ root *yaml.Node }

func (l nodeLines) step(i int) string {
	return lineOf(l.stepNode(i))
}

func (l nodeLines) call(i, j int) string {
	calls := mappingValue(l.stepNode(i), "tool_calls")
	if calls == nil || calls.Kind != yaml.SequenceNode || j >= len(calls.Content) {
		return l.step(i)
	}
	return lineOf(calls.Content[j])
}

func (l nodeLines) stepNode(i int) *yaml.Node {
	if l.root == nil || len(l.root.Content) == 0 {
		return nil
	}
	steps := mappingValue(l.root.Content[0], "steps")
	if steps == nil || steps.Kind != yaml.SequenceNode || i >= len(steps.Content) {
		return nil
	}
	return steps.Content[i]
}

// mappingValue returns the value of key in a mapping node, or nil.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for k := 0; k+1 < len(n.Content); k += 2 {
		if n.Content[k].Value == key {
			return n.Content[k+1]
		}
	}
	return nil
}

// lineOf renders "line N: " for a node, or "" without one.
func lineOf(n *yaml.Node) string {
	if n == nil {
		return ""
	}
	return fmt.Sprintf("line %d: ", n.Line)
}
