"""Match records: the model, the crash-safe journal, .mat and SGF files, replay and the chouette scoresheet.

Pure: no devices, no threads; files are read and written only by the functions that say so.
"""
