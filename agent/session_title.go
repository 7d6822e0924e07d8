package agent

import (
	"context"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/agentls/agentls/agentproto"
)

// DefaultTitle is a new session's title until its first prompt names it.
const DefaultTitle = "New chat"

// maxTitleRunes caps a title made from a prompt.
const maxTitleRunes = 60

// TitleFromPrompt is a session title made from a prompt: its first line
// that is not blank, with control and formatting characters (bidi
// overrides, zero-width characters) dropped, runs of white space made one
// space, trimmed, and cut to 60 characters ("…" marks a cut). "" when the
// prompt has no such line.
func TitleFromPrompt(text string) string {
	for _, line := range strings.Split(text, "\n") {
		var b strings.Builder
		space := false
		for _, r := range line {
			switch {
			case r == utf8.RuneError || unicode.Is(unicode.Cf, r):
				continue
			case unicode.IsSpace(r) || unicode.IsControl(r):
				space = true
				continue
			}
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		}
		title := b.String()
		if title == "" {
			continue
		}
		if utf8.RuneCountInString(title) > maxTitleRunes {
			runes := []rune(title)
			title = strings.TrimRight(string(runes[:maxTitleRunes-1]), " ") + "…"
		}
		return title
	}
	return ""
}

// TitleFirstPrompt names a session after its first prompt: when its title
// is still DefaultTitle, it becomes TitleFromPrompt(text), saved in the
// session's metadata (agent/listSessions and session/list show it). ok
// tells whether the title changed; updatedAt is RFC 3339.
func (m *Manager) TitleFirstPrompt(id, text string) (title, updatedAt string, ok bool) {
	s, err := m.session(id)
	if err != nil {
		return "", "", false
	}
	title = TitleFromPrompt(text)
	if title == "" {
		return "", "", false
	}
	s.mu.Lock()
	if s.meta.Title != DefaultTitle && s.meta.Title != "" {
		s.mu.Unlock()
		return "", "", false
	}
	s.meta.Title = title
	save := s.saveMetaLocked()
	updatedAt = s.meta.UpdatedAt.UTC().Format(time.RFC3339)
	s.mu.Unlock()
	save()
	return title, updatedAt, true
}

// titleFirstPrompt is TitleFirstPrompt telling the editor the new title.
func (m *Manager) titleFirstPrompt(ctx context.Context, id, text string) {
	if title, at, ok := m.TitleFirstPrompt(id, text); ok {
		m.notes.Update(ctx, id, agentproto.SessionInfoUpdate{SessionUpdate: "session_info_update", Title: title, UpdatedAt: at})
	}
}

// SetTitle renames a session (agent/setTitle): the title is made as one
// from a prompt (control and formatting characters dropped, white space
// made one space, at most 60 characters); a title with nothing left is
// invalid. The editor is told (session_info_update).
func (m *Manager) SetTitle(ctx context.Context, id, title string) (agentproto.Session, error) {
	s, err := m.session(id)
	if err != nil {
		return agentproto.Session{}, err
	}
	clean := titleOf(title)
	if clean == "" {
		return agentproto.Session{}, invalidf("title is empty: give a title with at least one visible character")
	}
	s.mu.Lock()
	s.meta.Title = clean
	s.meta.UpdatedAt = m.now()
	save := s.saveMetaLocked()
	info := s.infoLocked()
	s.mu.Unlock()
	save()
	m.notes.Update(ctx, id, agentproto.SessionInfoUpdate{SessionUpdate: "session_info_update", Title: info.Title, UpdatedAt: info.UpdatedAt})
	return info, nil
}

// titleOf is a title the user gave as a session title: TitleFromPrompt of
// it made one line (every line break a space).
func titleOf(title string) string {
	return TitleFromPrompt(strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ").Replace(title))
}
