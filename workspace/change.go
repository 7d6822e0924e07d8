package workspace

// Position is a zero-based position as LSP defines it: Character counts UTF-16
// code units.
type Position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

// Range is a half-open [Start, End) range of Positions.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// TextEdit replaces Range (in the file's current text) with NewText.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// ChangeKind names what a Change does.
type ChangeKind string

// The kinds of Change.
const (
	ChangeEdit   ChangeKind = "edit"   // modify an existing file: Edits against Before, giving After
	ChangeCreate ChangeKind = "create" // create a new file whose content is After
	ChangeRename ChangeKind = "rename" // move From to Path
	ChangeDelete ChangeKind = "delete" // delete Path (a folder only with Recursive or when empty)
	ChangeMkdir  ChangeKind = "mkdir"  // create the folder Path (and missing parents)
)

// Change is one change to the workspace computed by a mutating tool. Nothing is
// written when a Change is computed: the server applies it (through the editor
// or on disk) after the guard has checked it a second time.
type Change struct {
	Kind ChangeKind
	// Path is the target (for a rename, the destination).
	Path Path
	// From is the source of a rename.
	From Path
	// Edits transform Before into After (ChangeEdit only), in UTF-16 ranges.
	Edits []TextEdit
	// Before is the file's text when the change was computed (ChangeEdit).
	Before string
	// After is the file's full text after the change (ChangeEdit, ChangeCreate).
	After string
	// Recursive allows deleting a non-empty folder (ChangeDelete).
	Recursive bool
	// Version, when set, is the editor's version of the open document that
	// Before was read from (ChangeEdit): the edit names it, so that an
	// editor refuses it once its buffer moved on. Nil: the version the
	// editor has when the edit is sent.
	Version *int32
}

// Targets lists every path the change touches (both ends of a rename).
func (c Change) Targets() []Path {
	if c.Kind == ChangeRename {
		return []Path{c.From, c.Path}
	}
	return []Path{c.Path}
}
