import { PriceEditor } from './price-edit';

/** "Group Electricity Price Edit": the price a user group's members pay at a station. */
export default function GroupPriceEditPage() {
  return <PriceEditor kind="group" />;
}
