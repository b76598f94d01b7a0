package widget

// Renders counts each component's renders while a test counts them (nil
// otherwise): the tests that check a change renders only the components
// whose inputs it changed read it (web/rendercount_test.go).
var Renders map[string]int

func CountRender(component string) {
	if Renders != nil {
		Renders[component]++
	}
}
