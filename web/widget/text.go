package widget

// BoolText is a boolean as an attribute's text.
func BoolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// OrDefault is s, or def when s is empty.
func OrDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
