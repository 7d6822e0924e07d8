package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// lineMatcher finds the lines of a buffer that match a regular expression.
// Go's regexp has no literal prefilter beyond a literal prefix, so the
// expression is analysed: when every match must contain one of a few
// literals, those are searched for in the whole buffer (bytes.Index or a
// case-folding scan anchored on a rare byte) and the expression only runs on
// the lines around the hits; a pattern that is a plain literal needs no
// expression at all.
type lineMatcher struct {
	re          *regexp.Regexp // matches within one line (no line break, no trailing "\r")
	literalOnly bool           // the finder's hits are the matches
	lits        []requiredLit  // nil: no prefilter, run re on every line
	// suffix, when the expression is a concatenation with the single
	// required literal as one of its parts, matches what must follow that
	// literal (anchored): a hit not followed by it is no candidate.
	suffix *regexp.Regexp
	// suffixFirst holds the bytes the suffix can start with (nil: unknown):
	// a hit followed by another byte is dropped without running suffix.
	suffixFirst *[256]bool
}

// requiredLit is a literal every match contains (one of the set).
type requiredLit struct {
	s    string // lower-cased when fold
	fold bool   // ASCII case-insensitive
}

// maxRequiredLits bounds the alternatives searched for at once.
const maxRequiredLits = 8

func newLineMatcher(pattern string, caseInsensitive bool) (*lineMatcher, error) {
	if pattern == "" {
		return nil, errors.New("empty pattern")
	}
	expr := pattern
	if caseInsensitive {
		expr = "(?i)" + pattern
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %q (RE2 syntax): %w", pattern, err)
	}
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("invalid regular expression %q (RE2 syntax): %w", pattern, err)
	}
	if matchesNewline(tree) {
		return nil, fmt.Errorf("pattern %q contains a line break (\\n); grep matches one line at a time", pattern)
	}
	m := &lineMatcher{re: re}
	if prefix, complete := re.LiteralPrefix(); complete && prefix != "" && !strings.ContainsAny(prefix, "\r\n") {
		m.literalOnly = true
		m.lits = []requiredLit{{s: prefix}}
		return m, nil
	}
	simple := tree.Simplify()
	m.lits = requiredLits(simple)
	var rest *syntax.Regexp
	m.suffix, rest = suffixAfter(simple, m.lits)
	if rest != nil {
		var set [256]bool
		if nullable, ok := firstBytes(rest, &set); ok && !nullable {
			m.suffixFirst = &set
		}
	}
	return m, nil
}

// suffixAfter returns the anchored expression for what follows the single
// required literal lits[0] when it is a direct part of the top-level
// concatenation, and that part of the tree; nil if there is none.
func suffixAfter(re *syntax.Regexp, lits []requiredLit) (*regexp.Regexp, *syntax.Regexp) {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	if len(lits) != 1 || re.Op != syntax.OpConcat {
		return nil, nil
	}
	for i, sub := range re.Sub[:len(re.Sub)-1] {
		if sub.Op != syntax.OpLiteral || (sub.Flags&syntax.FoldCase != 0) != lits[0].fold {
			continue
		}
		s := string(sub.Rune)
		if lits[0].fold {
			s = strings.ToLower(s)
		}
		if s != lits[0].s {
			continue
		}
		rest := &syntax.Regexp{Op: syntax.OpConcat, Sub: re.Sub[i+1:]}
		if hasWordBoundary(rest) {
			// \b and \B look at the byte before the suffix, which the
			// anchored match does not see.
			return nil, nil
		}
		suffix, err := regexp.Compile(`^(?:` + rest.String() + `)`)
		if err != nil || suffix.MatchString("") {
			return nil, nil // cannot fail: no use as a filter
		}
		return suffix, rest
	}
	return nil, nil
}

// firstBytes adds to set the bytes a match of re can start with and reports
// whether re can match the empty string; ok is false when the set cannot be
// known (or would be nearly every byte).
func firstBytes(re *syntax.Regexp, set *[256]bool) (nullable, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return true, true
		}
		return false, addRuneFirstBytes(set, re.Rune[0], re.Flags&syntax.FoldCase != 0)
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi >= utf8.RuneSelf {
				for b := 0xC0; b < 0x100; b++ { // any multi-byte leading byte
					set[b] = true
				}
				hi = utf8.RuneSelf - 1
			}
			for r := lo; r <= hi; r++ {
				set[r] = true
			}
		}
		return false, true
	case syntax.OpCapture, syntax.OpPlus:
		return firstBytes(re.Sub[0], set)
	case syntax.OpStar, syntax.OpQuest:
		_, ok := firstBytes(re.Sub[0], set)
		return true, ok
	case syntax.OpRepeat:
		n, ok := firstBytes(re.Sub[0], set)
		return n || re.Min == 0, ok
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			n, ok := firstBytes(sub, set)
			if !ok {
				return false, false
			}
			if !n {
				return false, true
			}
		}
		return true, true
	case syntax.OpAlternate:
		nullable := false
		for _, sub := range re.Sub {
			n, ok := firstBytes(sub, set)
			if !ok {
				return false, false
			}
			nullable = nullable || n
		}
		return nullable, true
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText:
		return true, true
	}
	return false, false
}

// addRuneFirstBytes adds the first UTF-8 byte of r (and of every rune in
// its case-folding orbit when fold, e.g. k, K and the Kelvin sign) to set.
func addRuneFirstBytes(set *[256]bool, r rune, fold bool) bool {
	var buf [utf8.UTFMax]byte
	add := func(r rune) {
		utf8.EncodeRune(buf[:], r)
		set[buf[0]] = true
	}
	add(r)
	if fold {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			add(f)
		}
	}
	return true
}

// hasWordBoundary reports a \b or \B anywhere in the expression.
func hasWordBoundary(re *syntax.Regexp) bool {
	if re.Op == syntax.OpWordBoundary || re.Op == syntax.OpNoWordBoundary {
		return true
	}
	for _, s := range re.Sub {
		if hasWordBoundary(s) {
			return true
		}
	}
	return false
}

// matchesNewline reports a literal "\n" anywhere in the expression.
func matchesNewline(re *syntax.Regexp) bool {
	if re.Op == syntax.OpLiteral && strings.ContainsRune(string(re.Rune), '\n') {
		return true
	}
	for _, s := range re.Sub {
		if matchesNewline(s) {
			return true
		}
	}
	return false
}

// requiredLits returns a set of literals one of which every match of re
// contains, or nil if none is known.
func requiredLits(re *syntax.Regexp) []requiredLit {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase == 0 {
			return []requiredLit{{s: string(re.Rune)}}
		}
		if p := longestFoldablePiece(re.Rune); p != "" {
			return []requiredLit{{s: p, fold: true}}
		}
		return nil
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLits(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLits(re.Sub[0])
		}
		return nil
	case syntax.OpConcat:
		var best []requiredLit
		for _, s := range re.Sub {
			if c := requiredLits(s); c != nil && betterLits(c, best) {
				best = c
			}
		}
		return best
	case syntax.OpAlternate:
		var all []requiredLit
		for _, s := range re.Sub {
			c := requiredLits(s)
			if c == nil {
				return nil
			}
			all = append(all, c...)
		}
		if len(all) > maxRequiredLits {
			return nil
		}
		return all
	}
	return nil
}

// betterLits prefers the set whose least selective literal scores higher,
// then the smaller set.
func betterLits(a, b []requiredLit) bool {
	if b == nil {
		return true
	}
	ma, mb := minLitScore(a), minLitScore(b)
	if ma != mb {
		return ma > mb
	}
	return len(a) < len(b)
}

func minLitScore(s []requiredLit) int {
	m := int(^uint(0) >> 1)
	for _, l := range s {
		m = min(m, litScore(l))
	}
	return m
}

// longestFoldablePiece returns the longest run of runes whose case folding is
// ASCII only: non-ASCII runes and k, s (which fold to U+212A and U+017F) cut
// the literal. The result is lower case.
func longestFoldablePiece(rs []rune) string {
	best, cur := "", []byte{}
	flush := func() {
		if len(cur) > len(best) {
			best = string(cur)
		}
		cur = cur[:0]
	}
	for _, r := range rs {
		lr := r | 0x20
		if r >= utf8.RuneSelf || lr == 'k' || lr == 's' {
			flush()
			continue
		}
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		cur = append(cur, byte(r))
	}
	flush()
	return best
}

// scan calls fn with the bounds [start, end) of each matching line of buf
// (end is at the "\n" or len(buf)), in order, until fn returns false.
func (m *lineMatcher) scan(buf []byte, fn func(start, end int) bool) {
	if m.lits == nil {
		for start := 0; start < len(buf); {
			end := bytes.IndexByte(buf[start:], '\n')
			if end < 0 {
				end = len(buf)
			} else {
				end += start
			}
			if m.re.Match(trimCR(buf[start:end])) && !fn(start, end) {
				return
			}
			start = end + 1
		}
		return
	}
	f := newFinder(m.lits)
	for pos := 0; pos < len(buf); {
		hit := f.index(buf, pos)
		if hit < 0 {
			return
		}
		start := bytes.LastIndexByte(buf[pos:hit], '\n') + 1 + pos
		end := bytes.IndexByte(buf[hit:], '\n')
		if end < 0 {
			end = len(buf)
		} else {
			end += hit
		}
		if m.candidate(f, buf, hit, end) &&
			(m.literalOnly || m.re.Match(trimCR(buf[start:end]))) && !fn(start, end) {
			return
		}
		pos = end + 1
	}
}

// candidate reports whether the line ending at end, whose first literal hit
// is at hit, may match: some hit on it must be followed by the suffix.
func (m *lineMatcher) candidate(f *finder, buf []byte, hit, end int) bool {
	if m.suffix == nil {
		return true
	}
	n := len(m.lits[0].s)
	line := trimCR(buf[:end])
	for hit >= 0 && hit < end {
		if after := hit + n; after < len(line) &&
			(m.suffixFirst == nil || m.suffixFirst[line[after]]) && m.suffix.Match(line[after:]) {
			return true
		}
		hit = f.index(buf, hit+1)
	}
	return false
}

func trimCR(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		return b[:n-1]
	}
	return b
}

// finder finds the next occurrence of any of a set of literals.
type finder struct {
	one  []anchorFinder
	next []int // cached next hit per literal (-2: not computed, -1: none left)
}

func newFinder(lits []requiredLit) *finder {
	f := &finder{one: make([]anchorFinder, len(lits)), next: make([]int, len(lits))}
	for i, l := range lits {
		f.one[i] = newAnchorFinder(l)
		f.next[i] = -2
	}
	return f
}

// index returns the first position >= from where a literal starts, or -1.
// Successive calls must not decrease from.
func (f *finder) index(buf []byte, from int) int {
	if len(f.one) == 1 {
		return f.one[0].index(buf, from)
	}
	best := -1
	for i := range f.one {
		if f.next[i] == -1 {
			continue
		}
		if f.next[i] < from {
			f.next[i] = f.one[i].index(buf, from)
			if f.next[i] < 0 {
				continue
			}
		}
		if best < 0 || f.next[i] < best {
			best = f.next[i]
		}
	}
	return best
}

// anchorFinder finds one literal by scanning for its rarest byte (in both
// cases when folding) with bytes.IndexByte and comparing around each hit:
// far fewer false starts than scanning for the first byte.
type anchorFinder struct {
	lit        []byte // lower case when fold
	fold       bool
	anchor     int  // index in lit of the byte scanned for
	lo, up     byte // the anchor byte in both cases (equal unless fold and a letter)
	nextLo     int  // cached next position of lo (-2 unknown, -1 none)
	nextUp     int
	sameByCase bool
}

func newAnchorFinder(l requiredLit) anchorFinder {
	f := anchorFinder{lit: []byte(l.s), fold: l.fold, nextLo: -2, nextUp: -2}
	for i := range f.lit {
		if byteRank(f.lit[i], f.fold) < byteRank(f.lit[f.anchor], f.fold) {
			f.anchor = i
		}
	}
	f.lo = f.lit[f.anchor]
	f.up = f.lo
	if f.fold && 'a' <= f.lo && f.lo <= 'z' {
		f.up = f.lo - ('a' - 'A')
	}
	f.sameByCase = f.lo == f.up
	return f
}

// index returns the first start >= from of the literal, or -1. Successive
// calls must not decrease from.
func (f *anchorFinder) index(buf []byte, from int) int {
	for p := from + f.anchor; p < len(buf); {
		hit := f.nextAnchor(buf, p)
		if hit < 0 {
			return -1
		}
		start := hit - f.anchor
		if end := start + len(f.lit); end <= len(buf) && f.equal(buf[start:end]) {
			return start
		}
		p = hit + 1
	}
	return -1
}

func (f *anchorFinder) equal(b []byte) bool {
	if !f.fold {
		return bytes.Equal(b, f.lit)
	}
	return asciiEqualFoldLower(b, f.lit)
}

// nextAnchor returns the first position >= p holding the anchor in either case.
func (f *anchorFinder) nextAnchor(buf []byte, p int) int {
	if f.nextLo != -1 && f.nextLo < p {
		f.nextLo = indexFrom(buf, p, f.lo)
	}
	if f.sameByCase {
		return f.nextLo
	}
	if f.nextUp != -1 && f.nextUp < p {
		f.nextUp = indexFrom(buf, p, f.up)
	}
	switch {
	case f.nextLo < 0:
		return f.nextUp
	case f.nextUp < 0:
		return f.nextLo
	}
	return min(f.nextLo, f.nextUp)
}

func indexFrom(buf []byte, p int, c byte) int {
	i := bytes.IndexByte(buf[p:], c)
	if i < 0 {
		return -1
	}
	return p + i
}

// asciiEqualFoldLower compares b with the lower-case ASCII lit ignoring case.
func asciiEqualFoldLower(b, lit []byte) bool {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lit[i] {
			return false
		}
	}
	return true
}

// commonBytes orders bytes from the most to the least frequent in source code
// and prose (roughly); bytes not listed count as rare.
const commonBytes = " etaoinsrlcdhupmf\n\t.,()\"_gbyw;:=/-'vk0x1*{}[]2#<>jqz&|3456789!+%$@?\\^`~"

// byteRank estimates how common c is (higher is more common). Upper-case
// letters are rarer than their lower case, unless the scan folds case.
func byteRank(c byte, fold bool) int {
	upper := 'A' <= c && c <= 'Z'
	if upper {
		c += 'a' - 'A'
	}
	i := strings.IndexByte(commonBytes, c)
	if i < 0 {
		return 0
	}
	r := 2 * (len(commonBytes) - i)
	if upper && !fold {
		r /= 4
	}
	return r
}

// litScore estimates how selective a literal is: longer and made of rarer
// bytes is better.
func litScore(l requiredLit) int {
	score := 0
	for i := 0; i < len(l.s); i++ {
		score += 2*len(commonBytes) + 8 - byteRank(l.s[i], l.fold)
	}
	return score
}
