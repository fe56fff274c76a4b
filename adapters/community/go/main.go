// A one-shot consumer adapter (suites/PROTOCOL.md, "One-shot mode") for the
// AG-UI Go SDK (sdks/community/go of the AG-UI repository): reads a case's
// events from stdin, one JSON event per line, and decides as the SDK does —
// each event decoded as the SDK's example client decodes an SSE event's
// data (its "type" read from the JSON, then events.EventDecoder.DecodeEvent),
// checked by its Validate, and the stream so far by events.ValidateSequence
// — then prints one result line: {"verdict":"accept"} or
// {"verdict":"reject","index":I,"message":…} at the first event refused. Built by scripts/community-sdks.sh
// against a local checkout; the SDK's source is never committed here.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/ag-ui-protocol/ag-ui/sdks/community/go/pkg/core/events"
)

func answer(result map[string]any) {
	out, _ := json.Marshal(result)
	fmt.Println(string(out))
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 0, 1<<20), 64<<20)
	decoder := events.NewEventDecoder(nil)
	var seen []events.Event
	for index := 0; in.Scan(); index++ {
		stage := "json.Unmarshal"
		var data map[string]any
		var event events.Event
		err := json.Unmarshal(in.Bytes(), &data)
		if err == nil {
			stage = "EventDecoder.DecodeEvent"
			kind, _ := data["type"].(string)
			event, err = decoder.DecodeEvent(kind, in.Bytes())
		}
		if err == nil {
			stage = "Event.Validate"
			err = event.Validate()
		}
		if err == nil {
			stage = "events.ValidateSequence"
			seen = append(seen, event)
			err = events.ValidateSequence(seen)
		}
		if err != nil {
			answer(map[string]any{"verdict": "reject", "index": index, "message": err.Error(),
				"explain": map[string]any{"stage": stage}})
			return
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "reading stdin:", err)
		os.Exit(2)
	}
	answer(map[string]any{"verdict": "accept"})
}
