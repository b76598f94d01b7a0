package web

// renders counts each component's renders while a test counts them (nil
// otherwise): the tests that check a change renders only the components
// whose inputs it changed read it (render_test.go).
var renders map[string]int

func countRender(component string) {
	if renders != nil {
		renders[component]++
	}
}
