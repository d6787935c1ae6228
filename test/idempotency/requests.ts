// A request body both idempotency tests send: a valid user address.
export const HOLIDAY_ADDRESS = {
  typeCode: 'O',
  name: 'Holiday',
  street: '3 Beach Road',
  city: 'Byron Bay',
  stateCode: 'NSW',
  postcode: '2481',
  countryCode: 'AU',
};
