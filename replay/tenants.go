package replay

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"

	"kvleak/engine"
)

// MaxHashedTenants bounds Tenancy.Tenants.
const MaxHashedTenants = 1_000_000

// Tenancy says who sent a request that the log does not name a tenant for
// (Mooncake's and Azure's traces name none). Every such request is its own
// tenant ("line 17"), unless Tenants is set: then each is one of Tenants
// tenants ("tenant 1" …), picked by a hash of its line number and Seed, the
// same for the same log, Tenants and Seed.
type Tenancy struct {
	Tenants int // 0: every request its own tenant
	Seed    uint64
}

// Check refuses a tenancy the reader cannot use.
func (t Tenancy) Check() error {
	if t.Tenants < 0 || t.Tenants > MaxHashedTenants {
		return fmt.Errorf("tenants %d: must be between 1 and %s, or 0 for every request its own tenant", t.Tenants, thousands(MaxHashedTenants))
	}
	return nil
}

// Note says, for a person reading the results, what the tenancy assumes.
func (t Tenancy) Note() string {
	if t.Tenants == 0 {
		return "The log names no tenant, so each request is taken as its own tenant (named by its line, such as \"line 17\"): any other tenant's KV it reads counts as exposed. Pick a number of tenants to share them out instead."
	}
	return fmt.Sprintf("The log names no tenant, so each request is given one of %s tenants (\"tenant 1\" to \"tenant %d\") by a hash of its line number and the seed %d: the same log, number and seed give the same tenants. This is an assumption, not who sent them.",
		thousands(t.Tenants), t.Tenants, t.Seed)
}

// tenant is the tenant of the request on line.
func (t Tenancy) tenant(line int) string {
	if t.Tenants == 0 {
		return "line " + strconv.Itoa(line)
	}
	// FNV-1a over the seed and the line, eight bytes each.
	h := uint64(14695981039346656037)
	for _, v := range [2]uint64{t.Seed, uint64(line)} {
		for i := range 8 {
			h ^= v >> (8 * i) & 0xff
			h *= 1099511628211
		}
	}
	return "tenant " + strconv.Itoa(int(h%uint64(t.Tenants))+1)
}

// MaxSessionLen bounds a session's name: a UUID is 36 characters.
const MaxSessionLen = 128

// checkTenant holds a tenant name from the log to the engine's rule for a
// name typed on the page: printable UTF-8, 1 to engine.MaxTenantLen
// characters.
func checkTenant(name string) error { return checkName("tenant", name, engine.MaxTenantLen) }

// checkSession holds a session's name to the same rule, up to
// MaxSessionLen characters.
func checkSession(name string) error { return checkName("session", name, MaxSessionLen) }

func checkName(field, name string, most int) error {
	switch n := utf8.RuneCountInString(name); {
	case !utf8.ValidString(name):
		return badField(field, "is not valid UTF-8")
	case n == 0:
		return badField(field, "is empty")
	case n > most:
		return badField(field, "%s has %d characters: at most %d allowed", shown(name), n, most)
	}
	for _, c := range name {
		if !unicode.IsPrint(c) {
			return badField(field, "%s contains a control or invisible character (%U)", shown(name), c)
		}
	}
	return nil
}
