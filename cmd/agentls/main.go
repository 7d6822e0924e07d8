// Command agentls is a language server hosting a plan-first coding agent.
//
//	agentls [serve]          serve one editor over stdio (the default)
//	agentls acp              serve one ACP client over stdio (Agent Client Protocol)
//	agentls demo             run an offline, scripted demo end to end
//	agentls lint-plan FILE…  check .plan files (exit 1 on errors)
//	agentls version          print the version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/agentls/agentls/acp"
	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/internal/inheritedfd"
	"github.com/agentls/agentls/internal/nodump"
	"github.com/agentls/agentls/sandbox"
	"github.com/agentls/agentls/server"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

const usage = `agentls — a language server that hosts a plan-first coding agent.

Usage:
  agentls [flags] [serve]    serve one editor over stdin/stdout (LSP, JSON-RPC)
  agentls [flags] acp        serve one ACP client (Zed, JetBrains, CodeCompanion,
                             avante.nvim, agent-shell) over stdin/stdout
                             (Agent Client Protocol v1; see docs/acp.md)
  agentls demo [flags]       run the offline demo: a scripted model and editor
                             on a temporary copy of a sample project
  agentls login              ask for the model provider, base URL, model and API
                             key; save them in the user's config.yaml and a
                             0600 credentials file (ACP terminal authentication)
  agentls lint-plan FILE...  check .plan files (file:line:col: severity: message; exit 1 on errors)
  agentls version            print the version

Flags:
  --config FILE     use FILE instead of <workspace>/.agentls.yaml
  --log-file FILE   also write logs to FILE (logs never go to stdout)
  --log-level L     debug, info, warn or error: the log file's level (default
                    info) and, when given, stderr's (default warn: editors
                    such as Neovim show every stderr line as an error)
  --max-message-mb N  cap one incoming message at N MB (default 64); a larger
                    one is dropped and answered with an error
  --profile-cpu FILE  write a CPU profile of the run to FILE (go tool pprof)
  --profile-alloc FILE  write a profile of the run's allocations to FILE at
                    exit (go tool pprof -sample_index=alloc_space)
  --version         print the version
  --help            print this help

The model is configured in .agentls.yaml, the editor's initializationOptions,
or the environment (OPENAI_API_KEY, OPENAI_BASE_URL, AGENTLS_MODEL).
See README.md and docs/protocol.md.
`

func main() {
	sandboxExec()
	keepInheritedHome()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// startServing readies this process to serve an editor (`serve`) or an
// ACP client (`acp`) and returns what to call before it exits: agentls
// holds the model's key and runs commands the model wrote, so it keeps
// them (and every other process of this user) out of its
// /proc/<pid>/environ and memory; it probes the sandbox's layers off the
// start-up path (that goroutine ends with the probe, bounded); it sweeps
// what killed agentls processes left in $TMPDIR; and it sets the GC floor.
func startServing(ctx context.Context) (stop func()) {
	if err := nodump.Enable(); err != nil {
		slog.Warn("could not mark agentls as not dumpable; other processes of this user can read its environment", "err", err)
	}
	probed := make(chan struct{})
	go func() { // ends with the probe, which is bounded (one bwrap run)
		defer close(probed)
		sandbox.Detect()
	}()
	stopSweep := startTempSweep(ctx)
	stopFloor := startGCFloor(os.Getenv)
	return func() {
		stopFloor()
		stopSweep()
		t := time.NewTimer(probeStopWait)
		defer t.Stop()
		select {
		case <-probed:
		case <-t.C: // bwrap's probe dies with agentls (--die-with-parent)
		}
	}
}

// probeStopWait bounds how long an ending agentls waits for the sandbox
// probe it started.
const probeStopWait = time.Second

// keepInheritedHome sees that no descriptor this process inherited
// reaches a command, MCP server or language server. It runs after
// sandboxExec: the launcher hands its descriptors on.
func keepInheritedHome() {
	if err := inheritedfd.CloseOnExec(); err != nil {
		slog.Warn("the processes agentls starts may inherit what agentls inherited", "err", err)
	}
}

// run is main without the process: it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	sandbox.SetStaleTempHook(sweepDemoCaches) // a killed demo's caches go with its workspace
	fs := flag.NewFlagSet("agentls", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {} // --help prints it to stdout, a wrong flag to stderr: once each (below)
	configFile := fs.String("config", "", "config file")
	logFile := fs.String("log-file", "", "log file")
	logLevel := fs.String("log-level", "info", "log level")
	maxMessageMB := fs.Int("max-message-mb", server.DefaultMaxMessageBytes>>20, "cap on one incoming message, in MB")
	showVersion := fs.Bool("version", false, "print the version")
	profileCPU := fs.String("profile-cpu", "", "write a CPU profile of the whole run to this file (go tool pprof reads it)")
	profileAlloc := fs.String("profile-alloc", "", "write a profile of the whole run's allocations to this file at exit (go tool pprof reads it)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage) // asked for: stdout, like help
			return 0
		}
		fmt.Fprint(stderr, usage) // after flag's own line naming the wrong flag
		return 2
	}
	if *showVersion {
		fmt.Fprintf(stdout, "agentls %s (protocol %d)\n", version, agentproto.ProtocolVersion)
		return 0
	}
	cmd, rest := "serve", fs.Args()
	if len(rest) > 0 {
		cmd, rest = rest[0], rest[1:]
	}
	if askedHelp(cmd, rest) { // before logging and profiles: nothing runs
		fmt.Fprint(stdout, usage)
		return 0
	}
	// stderr stays quiet unless asked (Neovim logs each stderr line as an
	// [ERROR]); the log file keeps --log-level's own default.
	stderrLevel := "warn"
	if flagSet(fs, "log-level") {
		stderrLevel = *logLevel
	}
	closeLog, err := setupLogging(stderr, stderrLevel, *logFile, *logLevel)
	if err != nil {
		fmt.Fprintf(stderr, "agentls: %v\n", err)
		return 2
	}
	defer closeLog()
	if *profileCPU != "" {
		stopProfile, err := startCPUProfile(*profileCPU)
		if err != nil {
			fmt.Fprintf(stderr, "agentls: --profile-cpu: %v\n", err)
			return 2
		}
		defer stopProfile()
	}
	if *profileAlloc != "" {
		defer startAllocProfile(*profileAlloc)()
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	switch cmd {
	case "serve":
		if len(rest) > 0 {
			fmt.Fprintf(stderr, "agentls serve: unexpected arguments %q\n", rest)
			return 2
		}
		if *maxMessageMB <= 0 {
			fmt.Fprintf(stderr, "agentls: --max-message-mb must be at least 1, not %d\n", *maxMessageMB)
			return 2
		}
		defer startServing(ctx)()
		err := server.Serve(ctx, stdio{Reader: stdin, Writer: stdout}, server.Options{
			ConfigFile: *configFile, Version: version, MaxMessageBytes: *maxMessageMB << 20,
		})
		if errors.Is(err, server.ErrExitWithoutShutdown) {
			return 1
		}
		if err != nil {
			slog.Error("serve", "err", err)
			return 1
		}
		return 0
	case "acp":
		if len(rest) > 0 {
			fmt.Fprintf(stderr, "agentls acp: unexpected arguments %q\n", rest)
			return 2
		}
		defer startServing(ctx)()
		acp.Serve(ctx, stdin, stdout, acp.Options{ConfigFile: *configFile, Version: version})
		return 0
	case "demo":
		return runDemo(ctx, rest, stdout, stderr)
	case "login":
		return runLogin(rest, stdin, stdout, stderr, os.Getenv)
	case "lint-plan":
		return runLintPlan(rest, stdout, stderr)
	case "version":
		fmt.Fprintf(stdout, "agentls %s (protocol %d)\n", version, agentproto.ProtocolVersion)
		return 0
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "agentls: unknown command %q\n\n%s", cmd, usage)
	return 2
}

// askedHelp reports whether rest is only a help flag given to a command
// that has no flags of its own (demo and lint-plan answer --help
// themselves): `agentls serve --help` is a question, not a stray argument.
func askedHelp(cmd string, rest []string) bool {
	switch cmd {
	case "serve", "acp", "login", "version", "help":
		return len(rest) == 1 && isHelpFlag(rest[0])
	}
	return false
}

// isHelpFlag reports whether arg asks for help the way Go's flag package
// takes it (-h, -help, --help).
func isHelpFlag(arg string) bool {
	return arg == "-h" || arg == "-help" || arg == "--help"
}

func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// stdio joins stdin and stdout into the connection's stream.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }

// setupLogging logs to stderr at stderrLevel and, when file is set, to that
// file at fileLevel.
func setupLogging(stderr io.Writer, stderrLevel, file, fileLevel string) (func(), error) {
	var errLvl, fileLvl slog.Level
	if err := errLvl.UnmarshalText([]byte(stderrLevel)); err != nil {
		return nil, fmt.Errorf("--log-level: %w", err)
	}
	if err := fileLvl.UnmarshalText([]byte(fileLevel)); err != nil {
		return nil, fmt.Errorf("--log-level: %w", err)
	}
	handlers := []slog.Handler{slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: errLvl})}
	closer := func() {}
	if file != "" {
		f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, fmt.Errorf("--log-file: %w", err)
		}
		handlers = append(handlers, slog.NewTextHandler(f, &slog.HandlerOptions{Level: fileLvl}))
		closer = func() { _ = f.Close() }
	}
	slog.SetDefault(slog.New(slog.NewMultiHandler(handlers...)))
	return closer, nil
}
