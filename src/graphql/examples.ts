// Example documents: Apollo Sandbox opens with the home screen (sandbox.ts), and so does the bundled
// explorer at /graphiql. The home-screen query is the one a new mobile client runs to draw its first
// screen in one round trip; the subscription is the one the live transports document. Each is in
// the trusted documents manifest (trusted-manifest.ts) and the metrics' operation names. Every
// object with identity selects `id`, so Apollo Client's and Relay's caches normalise the answer.

/** The caller's connections, each company's next events and its libraries' newest entries. */
export const HOME_SCREEN_QUERY = `# The home screen in one round trip: your connections,
# each company's next events and its newest library entries.
# Needs the header x-service-authtoken.
query homeScreen {
  me {
    id
    connections {
      status
      company {
        id
        companyName
        events(first: 5) {
          edges { node { id eName company { id companyId } } }
          pageInfo { hasNextPage endCursor }
        }
        smartLibraries {
          id
          entries(first: 3) {
            edges { node { id smartEntryName library { id smartLibId } } }
          }
        }
      }
    }
  }
}
`;

/**
 * The inbox's live items (docs/api/notifications.md, "Live delivery"): the subscription clients send
 * over the WebSocket on /graphql and to /graphql/stream. Every field of an inbox item, on one line so
 * that a client can send the exact text (trusted documents match it byte for byte).
 */
export const NOTIFICATION_RECEIVED_SUBSCRIPTION =
  'subscription notificationReceived { notificationReceived { notificationId type companyId eventUUID brochureId message url read received } }';
