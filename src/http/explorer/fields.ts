// The explorer's form, from the table of quote parameters (src/quote/params.ts): one text field per parameter
// the table gives a field, at its place (the market's path, the trade's query), in the table's order. The page
// fetches this list and builds its form from it, so that a new parameter appears there with nothing else to do.
import { INTEGER_PATTERN } from "../../quote/decimal.ts";
import { QUOTE_PARAMS, type ParamLocation } from "../../quote/params.ts";

interface ExplorerField {
  readonly name: string;
  readonly in: ParamLocation;
  readonly label: string;
  /** Also what its tooltip says. */
  readonly description: string;
  readonly required: boolean;
  /** A required field starts with the documents' example, a demo quote that answers. */
  readonly value?: string;
  /** What an optional field left empty means. */
  readonly placeholder?: string;
  /** Digits only: a numeric keyboard on a phone. */
  readonly numeric: boolean;
  readonly wide: boolean;
}

export const EXPLORER_FIELDS: readonly ExplorerField[] = Object.entries(QUOTE_PARAMS).flatMap(([name, param]) => {
  if (param.explorer === undefined) return [];
  const placeholder = param.explorer.placeholder ?? (param.default === undefined ? undefined : String(param.default));
  const field: ExplorerField = {
    name,
    in: param.in,
    label: param.explorer.label,
    description: param.description,
    required: param.required,
    ...(param.required ? { value: param.example } : {}),
    ...(placeholder === undefined ? {} : { placeholder }),
    numeric: param.pattern === INTEGER_PATTERN,
    wide: param.explorer.wide === true,
  };
  return [field];
});
