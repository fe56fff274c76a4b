// A one-shot consumer adapter (suites/PROTOCOL.md, "One-shot mode") for the
// AG-UI C++ SDK (sdks/community/c++ of the AG-UI repository): reads a case's
// events from stdin, one JSON event per line, and takes each as the SDK's
// HttpAgent takes an SSE event's data (http_agent.cpp: parseSseEventData,
// then processSingleEvent) — JSON parsed, an unknown `type` skipped, the
// event parsed by EventParser, checked by the EventVerifier, applied by the
// EventHandler, a RUN_FINISHED with open messages or tool calls refused,
// and after RUN_ERROR what follows ignored — then prints one result line:
// {"verdict":"accept"} or {"verdict":"reject","index":I,"message":…} at the
// first event it refuses. Built by scripts/community-sdks.sh against a local
// checkout; the SDK's source is never committed here.
// The handler starts a run from the state the client sent (the RUN_STARTED
// input's `state`, when the stream carries it), as HttpAgent's handler
// starts from the agent's own state, which is what it sends (RunAgentInput.state,
// http_agent.cpp) unless the caller passes another.
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "core/error.h"
#include "core/event.h"
#include "core/event_verifier.h"
#include "core/subscriber.h"

using nlohmann::json;

static int reject(std::size_t index, const std::string& stage, const std::string& message) {
    json out = {{"verdict", "reject"}, {"index", index}, {"message", message},
                {"explain", {{"stage", stage}}}};
    std::cout << out.dump() << std::endl;
    return 0;
}

int main() {
    agui::EventVerifier verifier;
    agui::EventHandler handler({}, json::object());
    bool errored = false;
    std::string line;
    for (std::size_t index = 0; std::getline(std::cin, line); ++index) {
        std::string stage = "parseSseEventData";
        try {
            json data = json::parse(line);
            if (!data.is_object() || !data.contains("type") || !data["type"].is_string()) {
                return reject(index, stage, "Event JSON missing string 'type' field");
            }
            try {
                (void)agui::EventParser::parseEventType(data["type"].get<std::string>());
            } catch (const agui::AgentError&) {
                continue;  // an unknown type is skipped with a warning
            }
            std::unique_ptr<agui::Event> event = agui::EventParser::parse(data);
            if (data["type"] == "RUN_STARTED" && data.contains("input") && data["input"].is_object()
                && data["input"].contains("state")) {
                handler.applyMutation(agui::AgentStateMutation().withState(data["input"]["state"]));
            }
            if (errored) {
                continue;  // HttpAgent ignores what follows a RUN_ERROR
            }
            stage = "EventVerifier::verify";
            verifier.verify(*event);
            bool finished = event->type() == agui::EventType::RunFinished;
            bool error = event->type() == agui::EventType::RunError;
            stage = "EventHandler";
            agui::AgentStateMutation mutation = handler.handleEvent(std::move(event));
            if (mutation.hasChanges()) {
                handler.applyMutation(mutation);
            }
            if (finished && !verifier.isComplete()) {
                return reject(index, "processSingleEvent",
                              "RUN_FINISHED received before all lifecycle events completed.");
            }
            errored = errored || error;
        } catch (const std::exception& e) {
            return reject(index, stage, e.what());
        }
    }
    std::cout << json{{"verdict", "accept"}}.dump() << std::endl;
    return 0;
}
