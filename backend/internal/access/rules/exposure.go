package rules

// Exposure says who can open a service without signing in, as its rules
// (global first, then its own) and default action decide.
type Exposure string

// The exposures.
const (
	// ExposedToEveryone: a rule that matches every request allows it (or
	// the default allows and no rule matching every request stands before
	// it), so anyone on the internet gets through without identity,
	// except where a narrower deny or authenticate rule comes first.
	ExposedToEveryone Exposure = "everyone"
	// ExposedToSome: allow rules with conditions (paths, methods, client
	// addresses, countries, headers) let some requests through without
	// identity; everything else needs it or is refused.
	ExposedToSome Exposure = "some"
	// ExposedToNone: no request gets through without identity.
	ExposedToNone Exposure = "none"
)

// ExposureOf walks the rules as Decide does: the first rule that matches
// every request decides for every request that reaches it, and the
// default for those that reach the end. def is the effective default
// (EffectiveDefault).
func ExposureOf(global, own []Rule, def Action) Exposure {
	some := false
	for _, list := range [2][]Rule{global, own} {
		for i := range list {
			r := &list[i]
			if matchesEveryRequest(r) {
				switch {
				case r.Action == Allow:
					return ExposedToEveryone
				case some:
					return ExposedToSome
				}
				return ExposedToNone
			}
			some = some || r.Action == Allow
		}
	}
	switch {
	case def == Allow:
		return ExposedToEveryone
	case some:
		return ExposedToSome
	}
	return ExposedToNone
}

// matchesEveryRequest reports a rule with no condition that narrows it: no
// conditions at all, or only a path condition every path meets (prefix
// "/", glob "/**") and client addresses covering both address families.
func matchesEveryRequest(r *Rule) bool {
	if len(r.Methods)+len(r.Countries)+len(r.Headers) > 0 {
		return false
	}
	if len(r.Paths) > 0 {
		all := false
		for _, p := range r.Paths {
			all = all || (p.Type == PathPrefix && p.Value == "/") || (p.Type == PathGlob && p.Value == "/**")
		}
		if !all {
			return false
		}
	}
	if len(r.Sources) > 0 {
		var v4, v6 bool
		for _, s := range r.Sources {
			v4 = v4 || s == "0.0.0.0/0"
			v6 = v6 || s == "::/0"
		}
		return v4 && v6
	}
	return true
}
