package workspace

import (
	_ "embed"
	"math/rand/v2"
	"strconv"
	"strings"
)

var (
	//go:embed words/adjectives.txt
	adjectiveList string
	//go:embed words/nouns.txt
	nounList string

	adjectives = strings.Fields(adjectiveList)
	nouns      = strings.Fields(nounList)
)

// planNameDraws is how many random names NewPlanName tries before it falls
// back to numbering one.
const planNameDraws = 100

// NewPlanName returns a memorable "adjective-noun-noun" name (e.g.
// "calm-forest-symphony") for which exists is false. rng may be nil (the
// global source is used). If random draws keep hitting taken names, a number
// is appended to the last one ("calm-forest-symphony-2").
func NewPlanName(rng *rand.Rand, exists func(name string) bool) string {
	intN := rand.IntN
	if rng != nil {
		intN = rng.IntN
	}
	var name string
	for range planNameDraws {
		a := adjectives[intN(len(adjectives))]
		n1 := intN(len(nouns))
		n2 := intN(len(nouns) - 1)
		if n2 >= n1 {
			n2++ // two different nouns
		}
		name = a + "-" + nouns[n1] + "-" + nouns[n2]
		if exists == nil || !exists(name) {
			return name
		}
	}
	for i := 2; ; i++ {
		if c := name + "-" + strconv.Itoa(i); !exists(c) {
			return c
		}
	}
}
