"""The Textual screens: `sentinel tui` (the live dashboard), `sentinel step` and `sentinel play`.

They only subscribe to the runner's bus (state.py turns bus messages into what the screens
show, without Textual) and drive the same run code as `sentinel run`. Nothing outside this
package imports Textual; commands.py imports it only inside its command functions.
"""
