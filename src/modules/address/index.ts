// The address module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// A user's own addresses (work, personal), with the rules across fields and the reference lists.
import { defineModule } from '../../core/module';
import { UserAddress } from './address.entity';
import { AddressResolver, UserAddressResolver } from './address.resolver';
import { createAddressLoaders } from './address.loaders';
import { addressRoutes } from './address.routes';
import { addressNode } from './address.node';

export const address = defineModule({
  name: 'address',
  entities: [UserAddress],
  resolvers: [AddressResolver, UserAddressResolver],
  nodes: { Address: addressNode },
  loaders: createAddressLoaders,
  tag: 'User profile',
  routes: addressRoutes,
  seeders: () => import('./address.seeder.js').then((m) => [m.AddressSeeder]),
});

export { ADDRESS_FIELDS, AddressColumns, type AddressField, type AddressTypeCode, UserAddress } from './address.entity';
export { AddressInput } from './address.inputs';
export { type AddressPatch, assertStateInCountry, parseAddressUuid, toAddressPatch } from './address.patch';
export { ADDRESS_SELECTION } from './address.routes';
