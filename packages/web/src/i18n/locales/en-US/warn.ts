import type { UiCatalogue } from '../zh-CN';

/** Warning management (issue 17 item 3). */
const warn: UiCatalogue['warn'] = {
  entity: 'warning',
  createTitle: 'Enter a warning',
  saved: 'Warning saved',
  stationsTab: 'Station weather',
  warningsTab: 'Warnings',
  forecast: 'Forecast (next 3 days)',
  days: 'Days',
  atRiskOnly: 'Stations with warnings only',
  crossed: 'forecast {value}, threshold {threshold}',
  noWarnings: 'None',
  noForecast: 'No forecast yet',
  temperatures: '{max}° / {min}°',
  rainWind: 'Rain {rain} mm · wind {wind} km/h',
  dayHint: "The day the warning concerns (the station's local date).",
  end: 'End',
  endConfirm: 'End warning {id}? A warning raised by the forecast is not raised again for that day once ended.',
  ended: 'Warning ended',
  feedOffTitle: 'Weather feed is off',
  feedOff:
    'The administrator has not configured a forecast service (CSMS_WEATHER_URL), so no warnings are raised automatically. Enter warnings by hand under "Warnings".',
  feedOnTitle: 'Weather feed is on',
  feedOn: "Each station's forecast is fetched every {hours} h. Last successful fetch: {last}; next: {next}.",
  feedErrorTitle: 'Weather feed failed',
  feedError: 'The last fetch ({at}) failed: {error}. It is retried automatically; last successful fetch: {last}.',
  never: 'never',
  fetchNow: 'Fetch now',
  fetchQueued: 'Fetching the forecast; refresh the list shortly to see it',
  rules: 'Warning rules',
  rulesTitle: 'Warning rules',
  rulesHint:
    'A forecast past a threshold raises a Medium warning for the station, well past it a High one (heat +5 °C, frost −5 °C, storm +25 km/h, heavy rain ×2). Leave a threshold empty to turn its rule off.',
  rulesDefault: 'These are the default rules; saving makes them this provider’s own.',
  rulesUpdated: 'Last changed by {name} at {time}.',
  rulesSaved: 'Warning rules saved; the stored forecasts were judged again by them',
  provider: 'Provider',
};

const stationWeather: UiCatalogue['stationWeather'] = { entity: 'station weather' };

export { stationWeather };
export default warn;
