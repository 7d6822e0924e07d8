package workspace

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

const (
	// binarySniffLen is how much of a file is checked for a NUL byte.
	binarySniffLen = 8 << 10
	// DefaultReadLimit is the number of lines Read returns when no limit is given.
	DefaultReadLimit = 2000
	// MaxLineLen is the number of characters after which Read and Grep cut a line.
	MaxLineLen = 2000
)

// ErrBinary is wrapped by the errors about binary files.
var ErrBinary = errors.New("binary file")

// isBinary reports whether data looks binary: a NUL byte in its first 8 KiB.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binarySniffLen)], 0) >= 0
}

// IsBinary is the one rule for a binary file: read, edit and write refuse
// it, and a checkpoint does not keep it (a file the agent may change must
// be one a rewind can restore).
func IsBinary(data []byte) bool { return isBinary(data) }

// binaryError is the error about p, a binary file holding data: UTF-16
// (with a BOM, whose NUL bytes make it look binary) is named as such.
func binaryError(p Path, data []byte) error {
	if bytes.HasPrefix(data, []byte("\xFF\xFE")) || bytes.HasPrefix(data, []byte("\xFE\xFF")) {
		return fmt.Errorf("%s is UTF-16 (it starts with a UTF-16 byte order mark): agentls reads and edits UTF-8 text only, and would change its bytes; ask the user, or use run: %w", p.Rel, ErrBinary)
	}
	return fmt.Errorf("%s is a binary file; only text files can be read: %w", p.Rel, ErrBinary)
}

// ReadFile returns the current text of p: the overlay's (an open editor buffer
// or an applied agent edit) if it has one, else the disk's. Directories and
// binary files are refused.
func (w *Workspace) ReadFile(p Path) (string, error) {
	text, data, err := w.current(p)
	if err != nil {
		return "", err
	}
	if data != nil && isBinary(data) {
		return "", binaryError(p, data)
	}
	return text, nil
}

// readDisk reads p from disk without the binary check.
func (w *Workspace) readDisk(p Path) ([]byte, error) {
	fi, err := os.Stat(p.Abs)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s does not exist: %w", p.Rel, os.ErrNotExist)
		}
		return nil, fmt.Errorf("read %s: %w", p.Rel, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a file; use ls to list it", p.Rel)
	}
	data, err := os.ReadFile(p.Abs)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p.Rel, err)
	}
	return data, nil
}

// rawText is the current text of p (overlay first) without the binary check.
func (w *Workspace) rawText(p Path) (string, error) {
	text, _, err := w.current(p)
	return text, err
}

// current is the current text of p: the overlay's, else the disk's (then
// also as data, for the binary check); an error for a buffer out of sync.
func (w *Workspace) current(p Path) (text string, data []byte, err error) {
	if err := w.overlay.lostError(p); err != nil {
		return "", nil, err
	}
	if text, _, ok := w.overlay.Get(p.Abs); ok {
		return text, nil, nil
	}
	data, err = w.readDisk(p)
	if err != nil {
		return "", nil, err
	}
	return string(data), data, nil
}

// Hash is the content hash given to the model as `last_read_hash`: the first
// 16 hex digits of the SHA-256 of text.
func Hash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:8])
}

// ReadResult is a window of a file's lines, numbered like `cat -n`.
type ReadResult struct {
	// Path is workspace-relative, with forward slashes.
	Path string
	// Content holds the lines StartLine..EndLine, each as "%6d\t%s\n".
	Content string
	// StartLine and EndLine are the 1-based first and last lines shown
	// (EndLine = StartLine-1 when nothing is shown).
	StartLine, EndLine int
	// TotalLines is the number of lines in the file.
	TotalLines int
	// Truncated reports that lines follow EndLine or that a line longer than
	// MaxLineLen characters was cut.
	Truncated bool
	// Hash is Hash of the whole file text.
	Hash string
	// Note says what the shown text does not: bytes that are not UTF-8, a
	// BOM, line breaks other than "\n" (Form.note); empty for plain text.
	Note string
}

// Read returns lines of p: offset is the 1-based first line (0 means 1) and
// limit the number of lines (0 means DefaultReadLimit). Lines are shown
// without their line breaks ("\n", "\r\n" or a lone "\r", as LSP counts
// them); lines longer than MaxLineLen characters are cut.
func (w *Workspace) Read(p Path, offset, limit int) (ReadResult, error) {
	if offset < 0 || limit < 0 {
		return ReadResult{}, fmt.Errorf("read %s: offset and limit must not be negative", p.Rel)
	}
	if offset == 0 {
		offset = 1
	}
	if limit == 0 {
		limit = DefaultReadLimit
	}
	text, err := w.ReadFile(p)
	if err != nil {
		return ReadResult{}, err
	}
	total := countLines(text)
	if offset > total && !(offset == 1 && total == 0) {
		return ReadResult{}, fmt.Errorf("offset %d is past the end of %s (%d lines)", offset, p.Rel, total)
	}
	res := ReadResult{Path: p.Rel, StartLine: offset, TotalLines: total, Hash: Hash(text), Note: FormOf(text).note(text)}
	var b strings.Builder
	// Lines end as LSP and editors end them: "\n", "\r\n" or a lone "\r".
	start := 0
	for n := 1; n < offset; n++ {
		_, start = nextLine(text, start)
	}
	n := offset
	for ; n < offset+limit && start >= 0 && start < len(text); n++ {
		end, next := nextLine(text, start)
		line := text[start:end]
		start = next
		if cut, ok := cutLine(line); ok {
			line = cut
			res.Truncated = true
		}
		fmt.Fprintf(&b, "%6d\t", n)
		b.WriteString(line)
		b.WriteByte('\n')
	}
	res.EndLine = n - 1
	if res.EndLine < total {
		res.Truncated = true
	}
	res.Content = b.String()
	return res, nil
}

// countLines counts lines the way `cat -n` numbers them, with line breaks as
// LSP has them ("\n", "\r\n", a lone "\r"): a final line without a break
// counts, an empty text has none.
func countLines(text string) int {
	n := 0
	for start := 0; start < len(text); n++ {
		_, next := nextLine(text, start)
		if next < 0 {
			return n + 1
		}
		start = next
	}
	return n
}

// cutNote ends a line Read and Grep cut (cutLine).
var cutNote = "[line cut at " + strconv.Itoa(MaxLineLen) + " characters]"

// hasCutNote reports whether s holds cutNote: new text copied from a cut
// line would lose the rest of it.
func hasCutNote(s string) bool { return strings.Contains(s, cutNote) }

// cutLine cuts line after MaxLineLen characters, marking the cut.
func cutLine(line string) (string, bool) {
	if len(line) <= MaxLineLen || utf8.RuneCountInString(line) <= MaxLineLen {
		return line, false
	}
	i, n := 0, 0
	for n < MaxLineLen {
		_, size := utf8.DecodeRuneInString(line[i:])
		i += size
		n++
	}
	return line[:i] + " … " + cutNote, true
}
