// GraphQL views of identity operations.
import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({
  description: 'How a user signs in (login-scheme operation). Unknown addresses get the same answer as a password user.',
  simpleResolvers: true,
})
export class LoginScheme {
  @Field({
    description: 'O: outbound federation (password grant at the token endpoint); I: inbound federation (external identity provider).',
  })
  authType!: string;

  @Field({ description: 'client_id to present at the token endpoint.' }) clientId!: string;

  @Field({ description: 'client_secret to present at the token endpoint.' }) clientSecret!: string;

  @Field(() => String, {
    nullable: true,
    description: 'For authType I: the authorization URL to open; the app appends state and a PKCE code_challenge. Null for authType O.',
  })
  authorizationUrl!: string | null;
}

@ObjectType({ description: 'A service auth token issued by loginUser, for the x-service-authtoken header.', simpleResolvers: true })
export class LoginResult {
  @Field({ description: 'Opaque service auth token.' }) authToken!: string;

  @Field(() => Int, { description: 'Id of the logged-in user.' }) userId!: number;

  @Field({ description: 'When the token expires unless used again (24 h sliding).' }) expiresAt!: Date;
}

@ObjectType({ description: 'A short-lived signed token for outbound single sign-on to a partner service.', simpleResolvers: true })
export class SsoToken {
  @Field({ description: 'ES256 JWT; the partner verifies it with the keys at {AUTH_BASE_URL}/.well-known/jwks.json.' }) ssoToken!: string;

  @Field({ description: 'The partner audience (aud claim) the token is for.' }) audience!: string;

  @Field({ description: 'When the token expires.' }) expiresAt!: Date;
}

@ObjectType({ description: 'The caller behind the presented service auth token.', simpleResolvers: true })
export class AuthSession {
  @Field(() => Int, { description: 'Id of the user.' }) userId!: number;

  @Field({ description: 'E-mail address of the user.' }) email!: string;

  @Field({ description: 'O (password) or I (inbound federation).' }) authType!: string;

  @Field({ description: 'When the service auth token expires unless used again (24 h sliding).' }) expiresAt!: Date;
}
