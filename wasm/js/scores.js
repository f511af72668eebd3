export function scoresApi() {
  return {};
}
