/** Compose '{title} - CSMS' (en) / '{title} - 充电运营管理平台' (zh); just the product name when dynamic titles are off. */
export function pageTitle(title: string | undefined, appTitle: string, dynamic: boolean): string {
  return dynamic && title ? `${title} - ${appTitle}` : appTitle;
}
