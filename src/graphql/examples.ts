// Example documents shown to people exploring the graph: Apollo Sandbox opens with them
// (sandbox.ts) and so does the bundled explorer at /graphiql. The home-screen query is the one a
// new mobile client runs to draw its first screen in one round trip.

/** The caller's connections, each company's next events and its libraries' newest entries. */
export const HOME_SCREEN_QUERY = `# The home screen in one round trip: your connections,
# each company's next events and its newest library entries.
# Needs the header x-service-authtoken.
query homeScreen {
  me {
    connections {
      status
      company {
        companyName
        events(first: 5) {
          edges { node { eName company { companyId } } }
          pageInfo { hasNextPage }
        }
        smartLibraries {
          entries(first: 3) {
            edges { node { smartEntryName library { smartLibId } } }
          }
        }
      }
    }
  }
}
`;
