package acp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sync"

	sdk "github.com/coder/acp-go-sdk"
)

// clientTerminal is a command the test client runs for terminal/create,
// as an editor's terminal would.
type clientTerminal struct {
	req  sdk.CreateTerminalRequest
	cmd  *exec.Cmd
	done chan struct{}

	mu       sync.Mutex
	out      bytes.Buffer
	exitCode int
	released bool
	killed   bool
}

func (t *clientTerminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.out.Write(p)
}

// terminals are the test client's terminals by id.
type terminals struct {
	mu   sync.Mutex
	byID map[string]*clientTerminal
	list []*clientTerminal
}

// startedTerminals returns the terminals the client started, in order.
func (c *testClient) startedTerminals() []*clientTerminal {
	c.terms.mu.Lock()
	defer c.terms.mu.Unlock()
	return append([]*clientTerminal(nil), c.terms.list...)
}

// firstTerminalEnded waits for the command of the client's first terminal
// to end and returns that terminal.
func (c *testClient) firstTerminalEnded() *clientTerminal {
	term := c.startedTerminals()[0]
	<-term.done
	return term
}

func (c *testClient) term(id string) (*clientTerminal, error) {
	c.terms.mu.Lock()
	defer c.terms.mu.Unlock()
	t, ok := c.terms.byID[id]
	if !ok {
		return nil, sdk.NewInvalidParams(map[string]any{"error": "unknown terminal " + id})
	}
	return t, nil
}

func (c *testClient) CreateTerminal(_ context.Context, p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	if c.createErr != "" {
		return sdk.CreateTerminalResponse{}, sdk.NewInternalError(map[string]any{"error": c.createErr})
	}
	if c.beforeCreate != nil {
		c.beforeCreate()
	}
	cmd := exec.Command(p.Command, p.Args...)
	if p.Cwd != nil {
		cmd.Dir = *p.Cwd
	}
	for _, e := range p.Env {
		cmd.Env = append(cmd.Env, e.Name+"="+e.Value)
	}
	t := &clientTerminal{req: p, cmd: cmd, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = t, t
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		return sdk.CreateTerminalResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	go func() {
		err := cmd.Wait()
		t.mu.Lock()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.exitCode = ee.ExitCode()
		}
		t.mu.Unlock()
		close(t.done)
	}()
	c.terms.mu.Lock()
	defer c.terms.mu.Unlock()
	if c.terms.byID == nil {
		c.terms.byID = map[string]*clientTerminal{}
	}
	id := fmt.Sprintf("term-%d", len(c.terms.list)+1)
	c.terms.byID[id] = t
	c.terms.list = append(c.terms.list, t)
	if c.onTerminal != nil {
		c.onTerminal(t)
	}
	return sdk.CreateTerminalResponse{TerminalId: id}, nil
}

func (c *testClient) TerminalOutput(_ context.Context, p sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	t, err := c.term(p.TerminalId)
	if err != nil {
		return sdk.TerminalOutputResponse{}, err
	}
	res := sdk.TerminalOutputResponse{}
	select {
	case <-t.done:
		t.mu.Lock()
		code := t.exitCode
		t.mu.Unlock()
		res.ExitStatus = &sdk.TerminalExitStatus{ExitCode: &code}
	default:
	}
	t.mu.Lock()
	res.Output = t.out.String()
	t.mu.Unlock()
	return res, nil
}

func (c *testClient) WaitForTerminalExit(ctx context.Context, p sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	t, err := c.term(p.TerminalId)
	if err != nil {
		return sdk.WaitForTerminalExitResponse{}, err
	}
	select {
	case <-t.done:
	case <-ctx.Done():
		return sdk.WaitForTerminalExitResponse{}, ctx.Err()
	}
	t.mu.Lock()
	code := t.exitCode
	t.mu.Unlock()
	return sdk.WaitForTerminalExitResponse{ExitCode: &code}, nil
}

func (c *testClient) KillTerminal(_ context.Context, p sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	t, err := c.term(p.TerminalId)
	if err != nil {
		return sdk.KillTerminalResponse{}, err
	}
	t.mu.Lock()
	t.killed = true
	t.mu.Unlock()
	killGroup(t.cmd)
	return sdk.KillTerminalResponse{}, nil
}

func (c *testClient) ReleaseTerminal(_ context.Context, p sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	t, err := c.term(p.TerminalId)
	if err != nil {
		return sdk.ReleaseTerminalResponse{}, err
	}
	t.mu.Lock()
	t.released = true
	t.mu.Unlock()
	killGroup(t.cmd)
	<-t.done
	return sdk.ReleaseTerminalResponse{}, nil
}
