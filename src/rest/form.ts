// Flat forms: the specification's support-group form numbers the parts of each asset
// (assetName1 ... assetVersionFile10), where the GraphQL input holds a list of asset inputs.
// A route declares the correspondence once; the executor turns the form into the input and
// the OpenAPI document lists the numbered parts with the types of the fields they fill.
import { getNullableType, isInputObjectType, isListType, type GraphQLInputType } from 'graphql';
import { annotated, inputObjectSchema, inputSchema, type Components, type JsonSchema } from './json-schema';
import { rulesOf } from '../graphql/rules';

export interface FormShape {
  /** The input's list field the numbered parts fill, e.g. assets. */
  list: string;
  /** The field of a list item that receives the number, e.g. index. */
  index: string;
  /** Highest number listed in the document (numbers beyond reach the service, which names them). */
  max: number;
  /** Part name prefix -> item field: { assetName: 'name', assetImageFile: 'imageFile' }. */
  parts: Record<string, string>;
}

/** The form's parts as the input: numbered parts grouped into list items, in number order. */
export function formToInput(form: Record<string, unknown>, shape: FormShape): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  const items = new Map<number, Record<string, unknown>>();
  const numbered = new RegExp(`^(${Object.keys(shape.parts).join('|')})(0|[1-9]\\d{0,8})$`);
  for (const [name, value] of Object.entries(form)) {
    const m = numbered.exec(name);
    if (!m) {
      input[name] = value;
      continue;
    }
    const n = Number(m[2]);
    const item = items.get(n) ?? items.set(n, { [shape.index]: n }).get(n)!;
    item[shape.parts[m[1]]] = value;
  }
  if (items.size) input[shape.list] = [...items.keys()].sort((a, b) => a - b).map((n) => items.get(n));
  return input;
}

/** The flat form's schema: the input's own fields, and each numbered part 1..max with its item field's type. */
export function formSchema(components: Components, type: GraphQLInputType, shape: FormShape): JsonSchema {
  const inputType = getNullableType(type);
  if (!isInputObjectType(inputType)) throw new Error(`A form fills an input object, not ${String(inputType)}`);
  const whole = inputObjectSchema(components, inputType, shape.list) as { properties: Record<string, JsonSchema>; required?: string[] };
  const properties = { ...whole.properties };
  const listType = getNullableType(inputType.getFields()[shape.list].type);
  const itemType = isListType(listType) ? getNullableType(listType.ofType) : undefined;
  if (itemType && isInputObjectType(itemType)) {
    const fields = itemType.getFields();
    const rules = rulesOf(itemType.name);
    for (let n = 1; n <= shape.max; n++) {
      for (const [prefix, field] of Object.entries(shape.parts)) {
        // A part is sent or left out: never null.
        const f = fields[field];
        properties[`${prefix}${n}`] = annotated(
          inputSchema(components, getNullableType<GraphQLInputType>(f.type), rules?.get(field), true),
          f.description,
          f.deprecationReason,
        );
      }
    }
  }
  return { ...whole, properties };
}
