"""Data-logger files written with the loggers' own libraries (TDMS, MDF 4, UFF 58, HDF5): one
writer per format, ``(path, [(name, unit or None, values)], time)``, time in s."""
import numpy as np


def write_tdms(path, channels, time):
    from nptdms import ChannelObject, TdmsWriter
    objects = [ChannelObject("rig", name, values, properties={"wf_increment": float(time[1] - time[0]),
                                                              "wf_start_offset": float(time[0]),
                                                              **({"unit_string": unit} if unit else {})})
               for name, unit, values in channels]
    with TdmsWriter(str(path)) as w:
        w.write_segment(objects)


def write_mdf(path, channels, time):
    from asammdf import MDF, Signal
    mdf = MDF(version="4.10")
    mdf.append([Signal(values, time, name=name, unit=unit or "") for name, unit, values in channels])
    mdf.save(str(path), overwrite=True)
    mdf.close()


def write_uff(path, channels, time):
    import pyuff
    text = ""
    for k, (name, unit, values) in enumerate(channels):
        pyuff.UFF(str(path)).write_sets([pyuff.prepare_58(
            func_type=1, id1=name, rsp_node=k + 1, rsp_dir=1, ref_node=0, ref_dir=0, data=values, x=time,
            abscissa_spec_data_type=17, abscissa_axis_units_lab="s", ordinate_spec_data_type=0,
            ordinate_axis_units_lab=unit or "NONE", orddenom_spec_data_type=0, z_axis_spec_data_type=0, binary=0)],
            mode="overwrite")
        part = open(path).read()
        for i in np.flatnonzero(np.isnan(values)):      # pyuff's ASCII writer stores NaN as 0; loggers write nan
            part = part.replace(f"{time[i]:13.5e}{0.0:20.11e}", f"{time[i]:13.5e}{'nan':>20}")
        text += part
    open(path, "w").write(text)


def write_hdf5(path, channels, time):
    import h5py
    with h5py.File(path, "w") as f:
        f["time"] = time
        f["time"].attrs["unit"] = "s"
        for name, unit, values in channels:
            f[name] = values
            if unit:
                f[name].attrs["unit"] = unit


WRITERS = {".tdms": write_tdms, ".mf4": write_mdf, ".uff": write_uff, ".h5": write_hdf5}
