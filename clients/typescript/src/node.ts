// connect(): a TarokClient in Node.js over gRPC, the Connect protocol or gRPC-Web.
import {
  Http2SessionManager,
  createConnectTransport,
  createGrpcTransport,
  createGrpcWebTransport,
} from "@connectrpc/connect-node";
import { TarokClient } from "./client.js";
import type { ClientOptions } from "./client.js";

/** "grpc": native gRPC (the server's gRPC port); "connect" and "grpc-web": its HTTP port. */
export type Protocol = "grpc" | "connect" | "grpc-web";

export interface NodeClientOptions extends ClientOptions {
  /** Wire protocol (default "grpc"). */
  readonly protocol?: Protocol;
  /** Use protobuf binary (default) or JSON (Connect and gRPC-Web only). */
  readonly binary?: boolean;
}

/** A TarokClient with a `close()` that ends its HTTP/2 connection. */
export class NodeTarokClient extends TarokClient {
  constructor(
    private readonly session: Http2SessionManager,
    options: NodeClientOptions,
    baseUrl: string,
  ) {
    const common = {
      baseUrl,
      httpVersion: "2" as const,
      sessionManager: session,
      useBinaryFormat: options.binary ?? true,
    };
    const protocol = options.protocol ?? "grpc";
    const transport =
      protocol === "grpc"
        ? createGrpcTransport(common)
        : protocol === "connect"
          ? createConnectTransport(common)
          : createGrpcWebTransport(common);
    super(transport, options);
  }

  /** Close the connection (open streams end with an error). */
  close(): void {
    this.session.abort();
  }
}

/** Connect to a server, e.g. `connect("http://localhost:50051")` for its gRPC port. */
export function connect(baseUrl: string, options: NodeClientOptions = {}): NodeTarokClient {
  return new NodeTarokClient(new Http2SessionManager(baseUrl), options, baseUrl);
}
