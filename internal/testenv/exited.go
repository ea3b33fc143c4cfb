package testenv

import "time"

// pollExited is WaitExited where the system offers no exit event for a
// process that is not our child: it checks every 10 ms.
func pollExited(pid int, d time.Duration) bool {
	for deadline := time.Now().Add(d); Alive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}
