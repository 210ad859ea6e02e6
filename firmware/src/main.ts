// Placeholder entry until the firmware lands (issue 4).
import { PROTOCOL_VERSION } from "@cng/protocol";

export const FW_PROTOCOL = PROTOCOL_VERSION;
