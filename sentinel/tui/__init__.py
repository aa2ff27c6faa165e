"""The Textual screens: `sentinel tui` (the live dashboard), `sentinel step` and `sentinel play`.

They only subscribe to the runner's bus (state.py turns bus messages into what the screens
show, without Textual) and drive the same run code as `sentinel run`. Nothing outside this
package imports Textual; the commands that open these screens (sentinel/cli/screens.py) import
them only inside their command functions. Nothing here imports the CLI.
"""
