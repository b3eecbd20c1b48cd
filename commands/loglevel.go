package commands

// logLevels are the levels of logging/setLevel (--log-level), least
// severe first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

func validLogLevel(l string) bool {
	for _, v := range logLevels {
		if v == l {
			return true
		}
	}
	return false
}
