package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentls/agentls/agentproto"
	"github.com/agentls/agentls/sessionstore"

	"github.com/google/uuid"

	"github.com/agentls/agentls/agent/llm"
	"github.com/agentls/agentls/agent/runrules"
	"github.com/agentls/agentls/agent/stateignore"
	"github.com/agentls/agentls/agent/tools"
	"github.com/agentls/agentls/checkpoint"
	"github.com/agentls/agentls/config"
	"github.com/agentls/agentls/guard"
	"github.com/agentls/agentls/internal/allowrule"
	"github.com/agentls/agentls/workspace"
)

// ErrBusy is returned when a prompt arrives for a session whose turn is still running.
var ErrBusy = errors.New("session busy")

// ErrUnknownSession is wrapped by the InvalidParamsError of a request that
// names a session this workspace does not have.
var ErrUnknownSession = errors.New("unknown session")

// InvalidParamsError is a request the user can fix (unknown session, bad mode,
// answers that fail their schema). The faces map it to their "invalid
// params" error (LSP: JSON-RPC -32602). Err, when set, says which kind of
// mistake it is (ErrUnknownSession).
type InvalidParamsError struct {
	Msg string
	Err error
}

func (e *InvalidParamsError) Error() string { return e.Msg }

// Unwrap returns the kind of mistake, if any.
func (e *InvalidParamsError) Unwrap() error { return e.Err }

func invalidf(format string, args ...any) error {
	return &InvalidParamsError{Msg: fmt.Sprintf(format, args...)}
}

// Options configure a Manager.
type Options struct {
	Workspace *workspace.Workspace
	Config    config.Config
	Provider  llm.Provider
	Editor    Editor
	// Tools is the registry; nil means every tool (tools.All).
	Tools *tools.Registry
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// ConfigPaths are agentls's configuration files and folders known by
	// path (the --config file, the user's config folder as the server's
	// environment names it); the guard protects them in every mode, beside
	// `.agentls.yaml` (by name) and the user's config folders of this
	// process's own environment (config.UserDirs(os.Getenv)).
	ConfigPaths []string
	// StateDir is agentls's state folder (config.StateDir of the server's
	// environment): the guard keeps every tool out of it, beside the state
	// folder of this process's own environment, and the plan locks live in
	// it (planlock_registry.go). "" means none known.
	StateDir string
	// PlanOnly, when set, says why this workspace allows no build mode (a
	// workspace at the home folder): sessions start in plan mode, a switch
	// to build is refused with this text, and the guard holds every
	// session to plan mode's rules (guard.WithPlanOnly).
	PlanOnly string
	// UserInstructions is the user's own AGENTS.md
	// ($XDG_CONFIG_HOME/agentls/AGENTS.md, absolute; "" for none), put
	// first in every session's instructions; UserHome writes it as ~/…
	UserInstructions, UserHome string
	// UserCommands is the user's commands folder
	// ($XDG_CONFIG_HOME/agentls/commands, absolute; "" for none).
	UserCommands string
	// UserAgents is the user's sub-agent kinds folder
	// ($XDG_CONFIG_HOME/agentls/agents, absolute; "" for none).
	UserAgents string
	// ProjectAgentsTrusted reports whether the workspace's own kinds
	// (.agentls/agents) may be used: only once the user trusted the
	// workspace. nil never uses them.
	ProjectAgentsTrusted func() bool
	// ToolSource supplies each session's MCP tools; nil means none.
	ToolSource ToolSource
	// LanguageIntel is the language intelligence of the workspace (the
	// editor's or agentls's pool; language_intel.go); nil means none.
	LanguageIntel LanguageIntel
}

// Manager owns the sessions of one workspace.
type Manager struct {
	ws *workspace.Workspace
	// autoRunLinks indexes the workspace's links named like auto-run
	// files (autorun_links.go).
	autoRunLinks autoRunLinks
	// The editor's side, each code path through the small interface it
	// needs (editor.go); editor is the whole, for optional extensions such
	// as TurnReporter.
	notes    Notifier
	applier  Applier
	asker    Asker
	shower   DocumentShower
	progress ProgressStarter
	editor   Editor
	tools    *tools.Registry
	// toolSource supplies each session's extra tools (Options.ToolSource).
	toolSource ToolSource
	store      *sessionstore.Store
	// checkpoints is the workspace's checkpoint store (checkpoints.go).
	checkpoints *checkpoint.Store
	// afterUndoCheckpoint, when set (tests), runs between a code rewind's
	// undo checkpoint and its reading of the checkpoint's objects.
	afterUndoCheckpoint func()
	clock               func() time.Time
	// configPaths are the configuration files the guard protects.
	configPaths []string
	// stateDir is agentls's state folder (Options.StateDir); planOnly why
	// this workspace allows no build mode (Options.PlanOnly).
	stateDir, planOnly string
	// userInstructions is Options.UserInstructions, userHome
	// Options.UserHome.
	userInstructions, userHome string
	// userCommandsDir is Options.UserCommands.
	userCommandsDir string
	// userAgentsDir is Options.UserAgents; projectAgentsTrusted
	// Options.ProjectAgentsTrusted.
	userAgentsDir        string
	projectAgentsTrusted func() bool
	// locks is the state folder's plan lock registry (nil without one).
	locks *guard.LockRegistry
	// known records the sessions this user's agentls made or took in
	// (known_sessions.go): a session file it does not know came with the
	// workspace.
	known *sessionstore.Known
	// live is the configuration with the model, the guard and the allow
	// rules it decides; Reconfigure replaces it whole (a workspace file
	// the user trusted).
	live atomic.Pointer[liveConfig]

	// base is the parent of background turns; Close cancels it.
	base     context.Context
	stopBase context.CancelFunc

	mu       sync.Mutex
	sessions map[string]*Session
	wg       sync.WaitGroup // background jobs (resumed turns, plan changes); see startBackground
	turns    sync.WaitGroup // running turns, every face's (Session.begin); see startTurn
	closing  bool           // Close has begun (under mu)

	// implementing holds the plans (workspace-relative) whose status is
	// being set to implemented right now, so that two triggers at once (the
	// builder's tick and the editor's report of the same change) rewrite
	// the status only once.
	implementing sync.Map
	// planOwners serialise every write the server makes to a plan
	// (plan_owner.go).
	planOwners planOwners
	// intel is Options.LanguageIntel; intelStates each session's
	// baselines and step files (language_intel.go).
	intel       LanguageIntel
	intelStates sync.Map
}

// NewManager checks the tool registry (every tool declared) and returns a
// manager whose sessions live in <root>/.agentls/chats.
func NewManager(opts Options) (*Manager, error) {
	if opts.Workspace == nil || opts.Provider == nil || opts.Editor == nil {
		return nil, errors.New("agent: workspace, provider and editor are required")
	}
	reg := opts.Tools
	if reg == nil {
		var err error
		if reg, err = tools.NewRegistry(tools.All()...); err != nil {
			return nil, fmt.Errorf("tool registry: %w", err)
		}
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	base, stopBase := context.WithCancel(context.Background())
	m := &Manager{
		base:        base,
		stopBase:    stopBase,
		ws:          opts.Workspace,
		notes:       treeNotes{editor: opts.Editor},
		applier:     opts.Editor,
		asker:       opts.Editor,
		shower:      opts.Editor,
		progress:    opts.Editor,
		editor:      opts.Editor,
		tools:       reg,
		toolSource:  opts.ToolSource,
		intel:       opts.LanguageIntel,
		configPaths: opts.ConfigPaths,
		stateDir:    opts.StateDir,
		planOnly:    opts.PlanOnly,
		locks:       guard.NewLockRegistry(opts.StateDir),
		known:       sessionstore.NewKnown(opts.StateDir),
		store:       sessionstore.NewStore(filepath.Join(opts.Workspace.Root(), ".agentls", "chats")),
		checkpoints: checkpoint.Open(opts.Workspace, checkpoint.DefaultRetention),
		clock:       now,
		sessions:    map[string]*Session{},

		userInstructions: opts.UserInstructions,
		userHome:         opts.UserHome,
		userCommandsDir:  opts.UserCommands,

		userAgentsDir:        opts.UserAgents,
		projectAgentsTrusted: opts.ProjectAgentsTrusted,
	}
	m.notes = treeNotes{editor: opts.Editor, m: m}
	m.Reconfigure(opts.Config, opts.Provider)
	m.sweepTemps()
	return m, nil
}

// sweepTemps removes the temporary files of atomic writes that a killed
// agentls left in the workspace root, agentls's folders and the plans
// folder (see workspace.SweepTemps: never another live process's).
func (m *Manager) sweepTemps() {
	root := m.ws.Root()
	dirs := []string{root, filepath.Join(root, ".agentls"), filepath.Join(root, ".agentls", "chats"), filepath.Join(root, ".agentls", "checkpoints", "objects")}
	if p, err := m.ws.Resolve(m.plansDir()); err == nil {
		dirs = append(dirs, p.Abs)
	}
	workspace.SweepTemps(dirs...)
}

// liveConfig is what one configuration decides: the configuration itself,
// the model, the plans folder, the guard and the parsed run.allow rules.
type liveConfig struct {
	cfg      config.Config
	provider llm.Provider
	guard    *guard.Guard
	// plansDir is the plans folder, workspace-relative, and plansErr why it
	// cannot hold plans (nil if it can): config's PlansDir, resolved once.
	plansDir string
	plansErr error
	runAllow allowrule.Rules
}

// Reconfigure applies a new configuration and model (nil keeps the model)
// from each session's next step on: the server calls it when the workspace's
// configuration changed or the user trusted it.
func (m *Manager) Reconfigure(cfg config.Config, provider llm.Provider) {
	if provider == nil {
		provider = m.Provider()
	}
	plansDir, err := cfg.PlansDir(m.ws.Folders()...)
	if err != nil {
		// The guard refuses every change in that folder; the listing and
		// the plan tools report the same error.
		slog.Warn("plans folder cannot hold plans", "err", err)
	}
	configPaths := append(config.UserDirs(os.Getenv), m.configPaths...)
	stateDirs := []string{config.StateDir(os.Getenv), m.stateDir}
	g := guard.New(m.ws, plansDir, m.tools.Declarations()).
		WithConfig(configPaths...).
		WithState(stateDirs...).
		WithPlanOnly(m.planOnly).
		WithNetworkTools(cfg.PlanMode.AllowNetworkTools...)
	// No listing or search reads agentls's state or configuration either.
	m.ws.HideFromWalks(append(configPaths, stateDirs...)...)
	m.live.Store(&liveConfig{cfg: cfg, provider: provider, guard: g, plansDir: plansDir, plansErr: err, runAllow: runrules.Read(cfg.Run.Allow)})
}

// config is the configuration in force.
func (m *Manager) config() config.Config { return m.live.Load().cfg }

// runAllow is run.allow in force, parsed.
func (m *Manager) runAllow() allowrule.Rules { return m.live.Load().runAllow }

// Provider is the model in force.
func (m *Manager) Provider() llm.Provider {
	if l := m.live.Load(); l != nil {
		return l.provider
	}
	return nil
}

func (m *Manager) now() time.Time { return m.clock().UTC() }

func (m *Manager) notify(ctx context.Context, line string) {
	slog.Info(line)
	m.notes.Notify(ctx, line)
}

// Guard is the manager's plan-mode policy (for the configuration in force).
func (m *Manager) Guard() *guard.Guard { return m.live.Load().guard }

// Wait blocks until background turns (resumed by agent/answer) have ended.
func (m *Manager) Wait() { m.wg.Wait() }

// CancelAll cancels every running turn and withdraws pending questions.
func (m *Manager) CancelAll() {
	for _, s := range m.loaded() {
		_ = m.Cancel(s.ID())
	}
}

// loaded returns the sessions in memory, taken under the manager's lock so
// that each can then be locked (or waited on) without it.
func (m *Manager) loaded() []*Session {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		out = append(out, s)
	}
	return out
}

// Close cancels everything, waits for every turn (the requests' and the
// background ones) to end and gives up the sessions' locks: no turn
// writes a session another process may drive by then. A request that comes later (one still under way
// when the connection ended) cannot take a lock again: it fails
// (sessionstore.ErrReleased).
func (m *Manager) Close() {
	m.mu.Lock()
	m.closing = true
	m.mu.Unlock()
	m.stopBase() // also ends the turns (Session.begin)
	m.CancelAll()
	m.turns.Wait() // a turn winding down still writes its session
	m.wg.Wait()
	for _, s := range m.loaded() {
		s.flushMeta() // meta_touch.go
	}
	m.store.Release() // other processes may drive our sessions now
}

// startTurn counts one turn that Close waits for (Session.begin). It
// reports false once Close has begun: the turn must not start.
func (m *Manager) startTurn() bool { return m.count(&m.turns) }

// isClosing reports whether Close has begun.
func (m *Manager) isClosing() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closing
}

// startBackground counts one background job that Close waits for. It
// reports false once Close has begun: the job must not start.
func (m *Manager) startBackground() bool { return m.count(&m.wg) }

// count adds one to wg, one of the groups Close waits for, unless Close
// has begun (false).
func (m *Manager) count(wg *sync.WaitGroup) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closing {
		return false
	}
	wg.Add(1)
	return true
}

// NewSession starts a session. mode "" means the configured default.
func (m *Manager) NewSession(ctx context.Context, mode, title string) (agentproto.Session, error) {
	reason := "user"
	if mode == "" {
		reason = "default"
		mode = string(agentproto.ModeBuild)
		if m.config().PlanMode.DefaultActive || m.planOnly != "" {
			mode = string(agentproto.ModePlan)
		}
	}
	md, err := guard.ParseMode(mode)
	if err != nil {
		return agentproto.Session{}, invalidf("mode must be \"plan\" or \"build\", not %q", mode)
	}
	if md == agentproto.ModeBuild {
		if err := m.buildRefused(); err != nil {
			return agentproto.Session{}, err
		}
	}
	if title == "" {
		title = DefaultTitle
	}
	meta := sessionstore.Meta{Title: title, Mode: string(md)}
	if md == agentproto.ModePlan {
		meta.EnteredReason = reason
	}
	s, err := m.createSession(meta)
	if err != nil {
		return agentproto.Session{}, err
	}
	if md == agentproto.ModePlan {
		s.mu.Lock()
		entered := s.meta.EnteredAt
		s.mu.Unlock()
		m.notify(ctx, fmt.Sprintf("[plan-mode] entered at %s — reason: %s", entered.Format(time.RFC3339), reason))
	}
	info := s.Info()
	m.notes.ModeChanged(ctx, agentproto.ModeChangedParams{SessionID: info.SessionID, Mode: md, PlanFile: info.PlanFile, Source: "user"})
	return info, nil
}

// createSession gives meta a new id and timestamps (EnteredAt too, in plan
// mode), stores it in .agentls/chats and registers the session.
func (m *Manager) createSession(meta sessionstore.Meta) (*Session, error) {
	return m.createSessionOf(meta, nil)
}

// createSessionOf is createSession for a sub-agent's session when link is
// set (subagent_run.go): the link is in place before anyone can find it.
func (m *Manager) createSessionOf(meta sessionstore.Meta, link *subLink) (*Session, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("new session id: %w", err)
	}
	now := m.now()
	meta.ID, meta.CreatedAt, meta.UpdatedAt = id.String(), now, now
	if meta.Mode == string(agentproto.ModePlan) {
		meta.EnteredAt = now
	}
	if m.isClosing() { // no file for a session nothing would drive (Own fails too)
		return nil, fmt.Errorf("create session: %w", sessionstore.ErrReleased)
	}
	m.ignoreStateFolder()
	if err := m.store.Create(meta); err != nil {
		return nil, fmt.Errorf("create session: %w", err)
	}
	m.recordSession(meta)
	if err := m.store.Own(meta.ID); err != nil {
		return nil, fmt.Errorf("create session: %w", err)
	}
	s := m.newSession(meta, nil)
	if link != nil {
		link.short = ShortID(meta.ID)
		link.grant = guard.NewGrant("sub-agent "+link.key+" ("+link.short+")", link.grantTools...)
		s.sub = link
	}
	m.mu.Lock()
	m.sessions[meta.ID] = s
	m.mu.Unlock()
	s.saveMu.Lock()
	s.syncPlanLock(meta)
	s.saveMu.Unlock()
	return s, nil
}

// ignoreStateFolder keeps agentls's own state out of the user's git status
// while its commands/ and agents/ folders can be committed
// (agent/stateignore).
func (m *Manager) ignoreStateFolder() {
	stateignore.Ensure(m.ws.Root())
}

func (m *Manager) newSession(meta sessionstore.Meta, msgs []llm.Message) *Session {
	s := &Session{
		m: m, meta: meta, messages: msgs,
		planPhase: map[string]string{}, edited: map[string]bool{},
	}
	s.view.waitsOnHuman, s.view.acts = s.toolWaitsOnHuman, s.toolActs
	return s
}

// session finds a session in memory or on disk.
// The file is read and decoded outside the manager's lock; when two
// requests load the same session at once, the first registered wins.
func (m *Manager) session(id string) (*Session, error) {
	m.mu.Lock()
	s, ok := m.sessions[id]
	m.mu.Unlock()
	if ok {
		return s, nil
	}
	if id == "" {
		return nil, invalidf("sessionId is required")
	}
	if err := sessionstore.ValidID(id); err != nil {
		return nil, invalidf("session %q cannot be loaded: %v", id, err)
	}
	if !m.store.Exists(id) {
		return nil, &InvalidParamsError{Msg: fmt.Sprintf("unknown session %q", id), Err: ErrUnknownSession}
	}
	// Driving a session takes its lock: another process (editor window,
	// face of agentls) that drives it gets a clear error. The lock comes
	// before the file is read: a process taking a session over reads what
	// its previous owner left, not what it had before its last turn.
	if err := m.store.Own(id); err != nil {
		return nil, &InvalidParamsError{Msg: err.Error(), Err: err} // ErrSessionOwned, ErrReleased
	}
	meta, lines, err := m.store.Load(id)
	if err != nil {
		m.mu.Lock()
		_, registered := m.sessions[id] // a request that loaded it at once owns the lock
		m.mu.Unlock()
		if !registered {
			m.store.Disown(id)
		}
		if errors.Is(err, os.ErrNotExist) {
			return nil, &InvalidParamsError{Msg: fmt.Sprintf("unknown session %q", id), Err: ErrUnknownSession}
		}
		return nil, invalidf("session %q cannot be loaded: %v", id, err)
	}
	meta = m.takeIn(meta) // known_sessions.go: a session file that came with the workspace
	msgs, view := decodeHistory(id, lines)
	s = m.newSession(meta, msgs)
	view.waitsOnHuman, view.acts = s.view.waitsOnHuman, s.view.acts
	s.view = view
	s.rewindNote = view.rewindNote
	m.mu.Lock()
	if other, ok := m.sessions[id]; ok {
		m.mu.Unlock()
		return other, nil
	}
	m.sessions[id] = s
	m.mu.Unlock()
	s.saveMu.Lock() // a session loaded in build mode registers its plan
	s.syncPlanLock(meta)
	s.saveMu.Unlock()
	return s, nil
}

// LoadSession returns a session (from memory or disk, e.g. after a restart)
// with its messages, and tells the editor its mode and its attached plan's
// steps (a `plan` update), so a reloaded view shows the checklist again.
// The messages are the Transcript: each tool call with its title, kind and
// outcome as the editor showed them.
func (m *Manager) LoadSession(ctx context.Context, id string) (agentproto.Session, []llm.Message, error) {
	s, err := m.session(id)
	if err != nil {
		return agentproto.Session{}, nil, err
	}
	if !s.isBusy() {
		s.modelMessages() // records a repair the history needs
	}
	info := s.Info()
	m.notes.ModeChanged(ctx, agentproto.ModeChangedParams{SessionID: info.SessionID, Mode: info.Mode, PlanFile: info.PlanFile, Source: "load"})
	s.sendPlanUpdate(ctx)
	m.reportInterruptedRewind(ctx, id) // rewind_code.go
	return info, s.withRewound(s.withTurnErrors(m.Transcript(s.Messages()))), nil
}

// ListSessions lists every session on disk but sub-agents', newest first.
func (m *Manager) ListSessions() ([]agentproto.Session, error) { return m.ListSessionsOf(false) }

// ListSessionsOf lists the sessions on disk, newest first; sub-agents'
// sessions only when includeChildren.
func (m *Manager) ListSessionsOf(includeChildren bool) ([]agentproto.Session, error) {
	metas, err := m.store.List()
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	out := make([]agentproto.Session, 0, len(metas))
	for _, meta := range metas {
		if meta.ParentID != "" && !includeChildren {
			continue
		}
		m.mu.Lock()
		s, live := m.sessions[meta.ID]
		m.mu.Unlock()
		if live {
			out = append(out, s.Info())
			continue
		}
		if !m.known.Has(m.ws.Root(), meta.ID, meta.Trusted()) {
			meta = takenIn(meta, m.now()) // as it will load: its mode is not trusted
		}
		out = append(out, (&Session{m: m, meta: meta}).infoLocked())
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].UpdatedAt > out[j].UpdatedAt })
	return out, nil
}

// SetMode is the user's explicit switch. plan→build marks an attached plan
// approved. It takes effect at the very next tool call, also mid-turn.
func (m *Manager) SetMode(ctx context.Context, id, mode string) (agentproto.Session, error) {
	s, err := m.session(id)
	if err != nil {
		return agentproto.Session{}, err
	}
	md, err := guard.ParseMode(mode)
	if err != nil {
		return agentproto.Session{}, invalidf("mode must be \"plan\" or \"build\", not %q", mode)
	}
	if err := s.driveable(); err != nil {
		return agentproto.Session{}, err
	}
	if md == agentproto.ModeBuild {
		if err := m.buildRefused(); err != nil {
			return s.Info(), err
		}
		if s.State().Mode == agentproto.ModePlan {
			// The switch approves the attached plan: not while it has open
			// review comments (plan_comments.go).
			if err := m.commentsRefusal(s.pendingOrAttachedPlan()); err != nil {
				return s.Info(), err
			}
		}
		// Switching to build while a plan awaits approval approves it.
		if approved, err := s.approvePending(ctx); approved || err != nil {
			return s.Info(), err
		}
	}
	if !s.setMode(ctx, md, "user", "user") {
		return s.Info(), nil
	}
	if md == agentproto.ModeBuild {
		if plan := s.planFile(); plan != "" {
			m.markForBuild(ctx, s, plan) // plan_status.go
			s.baselineNow(plan)
			s.noteApprovedBySwitch(plan)
		}
	}
	return s.Info(), nil
}

// Cancel ends the session's running turn and withdraws its pending
// questions and approvals.
func (m *Manager) Cancel(id string) error {
	s, err := m.session(id)
	if err != nil {
		return err
	}
	s.mu.Lock()
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel() // first: a question asked from now on sees the cancellation
	}
	s.mu.Lock()
	s.pending, s.heldNext = nil, nil
	s.mu.Unlock()
	return nil
}

// ListPlans lists the plans in the plans folder with workspace.ListPlans,
// the listing plan_list shows the model too: newest first, at most limit
// (50 when limit ≤ 0) of the total that have the status ("" for every plan).
// A plan that cannot be listed in full carries its Error (its frontmatter
// cannot be parsed, it cannot be read, it is a symlink).
func (m *Manager) ListPlans(status string, limit int) ([]agentproto.PlanInfo, int, error) {
	if status != "" && !agentproto.PlanStatus(status).Valid() {
		return nil, 0, invalidf("status must be draft, approved, implemented or archived, not %q", status)
	}
	live := m.live.Load()
	if live.plansErr != nil {
		return nil, 0, live.plansErr
	}
	plans, err := m.ws.ListPlans(live.plansDir)
	if err != nil {
		return nil, 0, err
	}
	if limit <= 0 {
		limit = 50
	}
	selected, total := workspace.SelectPlans(plans, agentproto.PlanStatus(status), limit)
	out := make([]agentproto.PlanInfo, 0, len(selected))
	for _, p := range selected {
		out = append(out, planInfo(p))
	}
	return out, total, nil
}

// planInfo is a listed plan as agent/listPlans reports it.
func planInfo(p workspace.ListedPlan) agentproto.PlanInfo {
	info := agentproto.PlanInfo{Path: p.Path.Rel, StepsDone: p.Plan.StepsDone(), StepsTotal: len(p.Plan.Steps)}
	if meta := p.Plan.Meta; meta != nil {
		info.Title, info.Status = meta.Title, string(meta.Status)
		if !meta.CreatedAt.IsZero() {
			info.CreatedAt = meta.CreatedAt.UTC().Format(time.RFC3339)
		}
	}
	if p.Err != nil {
		info.Error = p.Err.Error()
	}
	return info
}

// plansDir is the plans folder in force (config's PlansDir).
func (m *Manager) plansDir() string { return m.live.Load().plansDir }
