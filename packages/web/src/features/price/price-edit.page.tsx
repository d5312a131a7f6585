import { PriceEditor } from './price-edit';

/** "Electricity Price Edit": a station's price. */
export default function PriceEditPage() {
  return <PriceEditor kind="station" />;
}
